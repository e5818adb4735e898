import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, queryRowsNamed } from '../../src/server/db/sql-results.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';

// queryRowsNamed: the rows queryRows gives, and on a PostgreSQL server one named statement
// per distinct text on each connection (search's stats query, ADR 0011), reused with new values.

describe.each(dbKinds)('queryRowsNamed on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  const statsLike = (word: string, limit: number) =>
    sql`select ${word}::text as word, count(*)::int as n, array_to_json(array_agg(g.i)) as xs
        from generate_series(1, ${limit}) g(i) where g.i % 2 = 0`;

  it('answers as queryRows does, whatever the values, run after run', async () => {
    for (const [word, limit] of [
      ['a', 4],
      ['b', 7],
      ["c'; drop table songs; --", 2],
      ['a', 4],
      ['d', 0],
      ['e', 10],
    ] as const) {
      const named = await queryRowsNamed(t.database.db, statsLike(word, limit));
      expect(named).toEqual(await queryRows(t.database.db, statsLike(word, limit)));
      expect(named).toEqual([
        {
          word,
          n: Math.floor(limit / 2),
          xs: limit < 2 ? null : Array.from({ length: Math.floor(limit / 2) }, (_, i) => 2 * i + 2),
        },
      ]);
    }
  });

  it.runIf(kind === 'postgres')('prepares each distinct text once per connection', async () => {
    const db = t.database.db;
    // Every connection of the pool has run both texts, more than once.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        queryRowsNamed(db, i % 2 ? statsLike(`w${i}`, i) : sql`select ${i}::int as i`),
      ),
    );
    const prepared = await queryRows<{ name: string; statement: string }>(
      db,
      sql`select name, statement from pg_prepared_statements where name like 'canto_%'`,
    );
    const texts = new Set(prepared.map((p) => p.statement));
    // This connection's (whichever ran the check): one statement per text, of the two
    // texts above (the values are parameters), each named after its text.
    expect(prepared.length).toBeGreaterThanOrEqual(1);
    expect(prepared.length).toBe(texts.size);
    expect(texts.size).toBeLessThanOrEqual(2);
    for (const p of prepared) expect(p.name).toMatch(/^canto_[A-Za-z0-9_-]{27}$/);
  });
});
