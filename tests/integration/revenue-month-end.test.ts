// The month-end revenue job (docs/decisions/0029) on the app's job queue, both databases:
// scheduled at start-up (the month just ended, due now, when it has no final run; the current
// month, due when it ends), one job per month however many processes schedule it, run once,
// skipped when the month already has a run from after its end, and chaining to the next month.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  monthRange,
  nextMonth,
  previousMonth,
} from '../../src/core/validation/revenue-month.rules.ts';
import { createJobQueue } from '../../src/server/jobs/job-queue.ts';
import { createMonthEndJob } from '../../src/server/modules/revenue/month-end-job.ts';
import { createRevenueRepository } from '../../src/server/modules/revenue/revenue.repository.ts';
import { createRevenueService } from '../../src/server/modules/revenue/revenue.service.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { rows } from './songs-helpers.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

type JobRecord = { month: string; state: string; run_at: string };
const monthJobs = (ctx: TestContext) =>
  rows<JobRecord>(
    ctx,
    sql`select payload->>'month' as month, state::text as state,
               to_json(run_at)#>>'{}' as run_at
        from jobs where name = 'revenue.month-end' order by payload->>'month', id`,
  );
const runsOf = async (ctx: TestContext, month: string) =>
  (
    await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from revenue_runs where month = ${month}`,
    )
  )[0]!.n;

async function until<T>(check: () => Promise<T | null | false>, what: string): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Another process's scheduler on the same database (its own queue, not started). */
function otherProcess(ctx: TestContext) {
  const jobs = createJobQueue({
    database: ctx.db.database,
    clock: ctx.clock,
    log: quiet,
    pollIntervalMs: 50,
    leaseSeconds: 30,
    stopTimeoutSeconds: 1,
  });
  const repository = createRevenueRepository(ctx.db.database.db);
  return createMonthEndJob({
    jobs,
    revenue: createRevenueService({ revenue: repository, clock: ctx.clock, log: quiet }),
    runs: repository,
    clock: ctx.clock,
    log: quiet,
  });
}

describe.each(dbKinds)('the month-end revenue job on %s', (kind) => {
  const ctx = useTestApp(kind, { REVENUE_MONTH_END_JOB: '1', JOB_POLL_INTERVAL_MS: '50' });

  it('runs the month just ended once, however many processes schedule it, then chains', async () => {
    const current = ctx.clock.now().toISOString().slice(0, 7);
    const ended = previousMonth(current);
    // The app scheduled at start-up (onReady); a second process schedules the same.
    await otherProcess(ctx).schedule();
    expect((await monthJobs(ctx)).map((j) => [j.month, j.state])).toEqual([
      [ended, 'queued'],
      [current, 'queued'],
    ]);
    const [, currentJob] = await monthJobs(ctx);
    expect(new Date(currentJob!.run_at).getTime()).toBe(monthRange(current).end.getTime());

    await ctx.jobs.start();
    await until(async () => (await runsOf(ctx, ended)) === 1, 'the ended month run');
    await until(
      async () => (await monthJobs(ctx)).find((j) => j.month === ended)?.state === 'done',
      'the job to finish',
    );
    // The run scheduled the next month, which is the current month: still one job for it.
    expect((await monthJobs(ctx)).map((j) => [j.month, j.state])).toEqual([
      [ended, 'done'],
      [current, 'queued'],
    ]);

    // A restart (or another process) schedules again: the ended month has its final run.
    await otherProcess(ctx).schedule();
    expect(await monthJobs(ctx)).toHaveLength(2);

    // A repeated job of a month already calculated after its end does nothing.
    await ctx.jobs.enqueue('revenue.month-end', { month: ended });
    await until(
      async () => (await monthJobs(ctx)).filter((j) => j.state === 'done').length === 2,
      'the repeated job',
    );
    expect(await runsOf(ctx, ended)).toBe(1);

    // When the current month ends, its job runs and the next month's is queued.
    ctx.clock.advance(monthRange(current).end.getTime() - ctx.clock.now().getTime() + 1000);
    await until(async () => (await runsOf(ctx, current)) === 1, 'the current month run');
    await until(
      async () => (await monthJobs(ctx)).some((j) => j.month === nextMonth(current)),
      'the next month job',
    );
    const next = (await monthJobs(ctx)).find((j) => j.month === nextMonth(current))!;
    expect(next.state).toBe('queued');
    expect(new Date(next.run_at).getTime()).toBe(monthRange(nextMonth(current)).end.getTime());
  }, 60_000);
});
