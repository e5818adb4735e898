import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createEmbeddedVacuum } from '../../src/server/db/embedded-vacuum.ts';
import { queryRows } from '../../src/server/db/sql-results.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';

type Stat = {
  relname: string;
  n_dead_tup: number;
  last_vacuum: Date | null;
  last_analyze: Date | null;
};

const silent = { debug() {}, info() {}, warn() {}, error() {} };

async function stats(t: TestDatabase, table: string): Promise<Stat> {
  const [row] = await queryRows<Stat>(
    t.database.db,
    sql`select relname, n_dead_tup::int as n_dead_tup, last_vacuum, last_analyze
        from pg_stat_user_tables where relname = ${table}`,
  );
  return row!;
}

/** Table statistics reach the shared counters about a second after the statements ran. */
async function until(check: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `churned`: 5,000 rows, 3,000 of them updated (dead versions, as play counts leave);
 * `appended`: 5,000 rows only inserted (never marked all-visible without a vacuum);
 * `quiet`: 10 rows, below every threshold.
 */
async function tables(t: TestDatabase) {
  const db = t.database.db;
  await db.execute(sql`create table churned (id int primary key, v int not null)`);
  await db.execute(sql`insert into churned select i, 0 from generate_series(1, 5000) i`);
  await db.execute(sql`update churned set v = v + 1 where id <= 3000`);
  await db.execute(sql`create table appended (id int primary key)`);
  await db.execute(sql`insert into appended select i from generate_series(1, 5000) i`);
  await db.execute(sql`create table quiet (id int primary key)`);
  await db.execute(sql`insert into quiet select i from generate_series(1, 10) i`);
  await until(async () => (await stats(t, 'churned')).n_dead_tup >= 3000);
}

describe('embedded vacuum on pglite', () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it('vacuums the tables autovacuum would, and only those', async () => {
    t = await createTestDatabase('pglite');
    await tables(t);
    const vacuum = createEmbeddedVacuum({ database: t.database, log: silent });

    const done = await vacuum.runOnce();
    expect(done).toContainEqual({ table: 'churned', vacuum: true });
    expect(done).toContainEqual({ table: 'appended', vacuum: true });
    expect(done.map((d) => d.table)).not.toContain('quiet');
    const churned = await stats(t, 'churned');
    expect(churned.n_dead_tup).toBe(0);
    expect(churned.last_vacuum).not.toBeNull();
    expect(churned.last_analyze).not.toBeNull();
    expect((await stats(t, 'appended')).last_vacuum).not.toBeNull();
    const quiet = await stats(t, 'quiet');
    expect([quiet.last_vacuum, quiet.last_analyze]).toEqual([null, null]);

    // Nothing is due again until rows change again.
    const again = (await vacuum.runOnce()).map((d) => d.table);
    expect(again).not.toContain('churned');
    expect(again).not.toContain('appended');
  });

  it('runs its passes by itself once started, and stops', async () => {
    t = await createTestDatabase('pglite');
    await tables(t);
    const vacuum = createEmbeddedVacuum({
      database: t.database,
      log: silent,
      firstDelayMs: 10,
      intervalMs: 60_000,
    });
    vacuum.start();
    try {
      await until(async () => (await stats(t!, 'churned')).last_vacuum !== null);
    } finally {
      await vacuum.stop();
    }
  });
});

describe.each(dbKinds.filter((kind) => kind === 'postgres'))('embedded vacuum on %s', (kind) => {
  it('leaves a server to its own autovacuum', async () => {
    const t = await createTestDatabase(kind);
    try {
      await tables(t);
      const vacuum = createEmbeddedVacuum({
        database: t.database,
        log: silent,
        firstDelayMs: 0,
        intervalMs: 10,
      });
      vacuum.start();
      await new Promise((r) => setTimeout(r, 300));
      await vacuum.stop();
      // last_vacuum is set by a VACUUM command only (the server's autovacuum sets its own).
      expect((await stats(t, 'churned')).last_vacuum).toBeNull();
    } finally {
      await t.drop();
    }
  });
});
