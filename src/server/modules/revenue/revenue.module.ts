import { isMonth, monthRange } from '../../../core/validation/revenue-month.rules.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Database, Db } from '../../db/client.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { createMonthEndJob } from './month-end-job.ts';
import { createRevenueRepository, type BeforeCommit, type RunRow } from './revenue.repository.ts';

export type { BeforeCommit } from './revenue.repository.ts';
import { revenueRoutes } from './revenue.routes.ts';
import { createRevenueService } from './revenue.service.ts';

export type RevenueModule = FeatureModule & {
  /**
   * Sets the (artist, month) row's tip_revenue to Σ (amount − fee) of the artist's paid tips
   * of that UTC month, inside `tx` (the transaction that marked a tip paid); keeps premium and
   * ad, total = premium + ad + tip. Idempotent: call it after every change of a paid tip.
   */
  refreshTipRevenue(tx: Db, artistId: string, month: string): Promise<void>;
  /** Calculates a month that has begun (the CLI's `revenue YYYY-MM`); by: the admin, or null. */
  calculate(month: string, by: string | null): Promise<RunRow>;
};

/** The run alone, for the operator's CLI (no routes, no job queue). */
export function createRevenueRuns(database: Database, clock: Clock) {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  return createRevenueService({
    revenue: createRevenueRepository(database.db),
    clock,
    log: quiet,
  });
}

/**
 * Artist revenue (docs/decisions/0029): the monthly run (admin route, CLI, month-end job),
 * the artist's months and CSV statements, and the tip credit other modules call.
 */
export function createRevenueModule(
  ctx: Pick<ModuleContext, 'database' | 'clock' | 'log' | 'jobs'>,
  {
    settings,
    beforeCommit,
  }: {
    /** monthEndJob: schedule the month-end run from this process (REVENUE_MONTH_END_JOB). */
    settings: { monthEndJob: boolean };
    /** Test-only: runs inside a calculation's transaction before it commits. */
    beforeCommit?: BeforeCommit;
  },
): RevenueModule {
  const repository = createRevenueRepository(ctx.database.db, { beforeCommit });
  const revenue = createRevenueService({ revenue: repository, clock: ctx.clock, log: ctx.log });
  const monthEnd = createMonthEndJob({
    jobs: ctx.jobs,
    revenue,
    runs: repository,
    clock: ctx.clock,
    log: ctx.log,
  });
  // Every process can run the job; scheduling is what the setting turns off.
  monthEnd.register();
  return {
    name: 'revenue',
    plugin: async (app) => {
      await app.register(revenueRoutes({ revenue }), { prefix: '/api' });
      if (settings.monthEndJob)
        app.addHook('onReady', async () => void (await monthEnd.schedule()));
    },
    async refreshTipRevenue(tx, artistId, month) {
      if (!isMonth(month)) throw new Error(`not a month: ${month}`);
      await repository.refreshTipRevenue(tx, artistId, month, monthRange(month));
    },
    calculate: (month, by) => revenue.calculate(month, by),
  };
}
