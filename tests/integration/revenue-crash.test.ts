// A revenue run killed with SIGKILL between its writes and its commit (docs/decisions/0029):
// the month's previous result and runs are intact, and a rerun completes. Both databases.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { createRevenueRuns } from '../../src/server/modules/revenue/revenue.module.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';
import { monthRows, referenceRevenue, seedMonth, asStored } from './revenue-helpers.ts';

const worker = path.resolve('tests/integration/revenue-crash-worker.ts');

async function waitFor(check: () => boolean, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(dbKinds)('a revenue run killed mid-way on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('leaves the previous result intact; a rerun completes', async () => {
    const month = '2026-10';
    const spec = {
      month,
      artists: 2,
      listeners: [
        {
          premium: true,
          plays: [
            { artist: 0, ms: 1000 },
            { artist: 1, ms: 2000 },
          ],
        },
      ],
    };
    const seeded = await seedMonth(t.database.db, spec);
    await createRevenueRuns(t.database, systemClock).calculate(month, null);
    const before = await monthRows(t.database.db, month);
    expect(before).toHaveLength(2);
    // More listening after the first run: the killed run would have changed the rows.
    const more = await seedMonth(t.database.db, {
      month,
      artists: 1,
      listeners: [{ premium: true, plays: [{ artist: 0, ms: 5000 }] }],
    });
    const runsOf = async () =>
      (
        (await t.database.db.execute(
          sql`select count(*)::int as n from revenue_runs where month = ${month}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;
    expect(await runsOf()).toBe(1);

    if (kind === 'pglite') await t.database.close();
    const child = spawn(process.execPath, ['--import', 'tsx', worker], {
      env: {
        ...process.env,
        REVENUE_TEST_DB_URL: t.url ?? '',
        REVENUE_TEST_DB_DIR: path.join(t.dataDir, 'db'),
        REVENUE_TEST_MONTH: month,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    child.stderr!.on('data', (c: Buffer) => (err += c));
    const exited = new Promise<string | null>((r) => child.once('exit', (_c, s) => r(s)));
    try {
      await waitFor(() => out.includes(`written ${month}`), `the run's writes (${err})`);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    if (kind === 'pglite') t.database = await openPglite(path.join(t.dataDir, 'db'));

    expect(await monthRows(t.database.db, month)).toEqual(before);
    expect(await runsOf()).toBe(1);

    // The month's lock died with the killed session: a rerun goes through at once.
    const run = await createRevenueRuns(t.database, systemClock).calculate(month, null);
    expect(run.artistsProcessed).toBe(3);
    expect(await runsOf()).toBe(2);
    const model = referenceRevenue(
      {
        ...spec,
        artists: 3,
        listeners: [...spec.listeners, { premium: true, plays: [{ artist: 2, ms: 5000 }] }],
      },
      { artistIds: [...seeded.artistIds, ...more.artistIds], listenerIds: [] },
    );
    expect(await monthRows(t.database.db, month)).toEqual(asStored(model.rows));
  }, 90_000);
});
