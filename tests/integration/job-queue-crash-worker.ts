/*
 * A worker process for tests/integration/job-queue.test.ts: it opens the test database
 * (JOB_TEST_DB_URL, or the PGlite directory JOB_TEST_DB_DIR), starts a job queue whose
 * `crash.test` handler prints `claimed <id> <attempt>` and never finishes, and waits to be
 * killed with SIGKILL mid-job.
 */
import { systemClock } from '../../src/core/clock.ts';
import { openPglite, openPostgres } from '../../src/server/db/client.ts';
import { createJobQueue } from '../../src/server/jobs/job-queue.ts';

const database = process.env.JOB_TEST_DB_URL
  ? await openPostgres(process.env.JOB_TEST_DB_URL, 2)
  : await openPglite(process.env.JOB_TEST_DB_DIR!);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const queue = createJobQueue({
  database,
  clock: systemClock,
  log: quiet,
  pollIntervalMs: 50,
  leaseSeconds: Number(process.env.JOB_TEST_LEASE_SECONDS ?? 30),
  stopTimeoutSeconds: 1,
});
queue.register('crash.test', async (job) => {
  process.stdout.write(`claimed ${job.id} ${job.attempt}\n`);
  await new Promise(() => {});
});
await queue.start();
