/*
 * A process for tests/integration/revenue-crash.test.ts: it opens the test database
 * (REVENUE_TEST_DB_URL, or the PGlite directory REVENUE_TEST_DB_DIR) and calculates
 * REVENUE_TEST_MONTH with a hook inside the run's transaction, after its writes and before
 * its commit, that prints `written <month>` and never returns: it waits to be killed with
 * SIGKILL there.
 */
import { systemClock } from '../../src/core/clock.ts';
import { openPglite, openPostgres } from '../../src/server/db/client.ts';
import { createRevenueModule } from '../../src/server/modules/revenue/revenue.module.ts';

const database = process.env.REVENUE_TEST_DB_URL
  ? await openPostgres(process.env.REVENUE_TEST_DB_URL, 2)
  : await openPglite(process.env.REVENUE_TEST_DB_DIR!);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const revenue = createRevenueModule(
  {
    database,
    clock: systemClock,
    log: quiet,
    jobs: { register() {}, enqueue: async () => null } as never,
  },
  {
    settings: { monthEndJob: false },
    beforeCommit: async (month) => {
      process.stdout.write(`written ${month}\n`);
      await new Promise(() => {});
    },
  },
);
await revenue.calculate(process.env.REVENUE_TEST_MONTH!, null);
