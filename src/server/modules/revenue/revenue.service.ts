import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  PLATFORM_FEE_PERCENT,
  PREMIUM_CONTRIBUTION_CENTS,
  platformFeeCents,
  revenueMessages,
  TIERS,
  monthOf,
} from '../../../core/validation/revenue.rules.ts';
import {
  centsToDollars,
  isMonth,
  monthRange,
} from '../../../core/validation/revenue-month.rules.ts';
import type { Log } from '../../log.ts';
import type { MonthRow, RevenueRepository, RunModel, RunRow } from './revenue.repository.ts';
import { statementCsv } from './revenue-statement.ts';

export type RevenueService = ReturnType<typeof createRevenueService>;

const contribution = BigInt(PREMIUM_CONTRIBUTION_CENTS);
export const runModel: RunModel = {
  contributionCents: contribution,
  feeCents: platformFeeCents(contribution),
  platformFeePercent: PLATFORM_FEE_PERCENT,
  tiers: TIERS,
};

export type RunResult = {
  month: string;
  artistsProcessed: number;
  totalPremiumPool: number;
  totalPremiumPoolCents: number;
  ranAt: string;
};

export const runResult = (run: RunRow): RunResult => ({
  month: run.month,
  artistsProcessed: run.artistsProcessed,
  totalPremiumPool: Number(centsToDollars(run.totalPremiumPoolCents)),
  totalPremiumPoolCents: Number(run.totalPremiumPoolCents),
  ranAt: run.ranAt.toISOString(),
});

const monthDto = (r: MonthRow) => ({
  month: r.month,
  premium_revenue: Number(r.premiumRevenueCents),
  ad_revenue: Number(r.adRevenueCents),
  tip_revenue: Number(r.tipRevenueCents),
  total_revenue: Number(r.totalRevenueCents),
  total_streams: r.totalStreams,
});

/** The monthly run and the artist's months (docs/decisions/0029). */
export function createRevenueService(deps: {
  revenue: RevenueRepository;
  clock: Pick<Clock, 'now'>;
  log: Log;
}) {
  const { revenue, clock, log } = deps;

  /** A month that can be calculated: well formed (400) and already begun (422). */
  const checkMonth = (month: string) => {
    if (!isMonth(month)) throw new AppError(ErrorCode.validation, revenueMessages.monthInvalid);
    if (monthRange(month).start.getTime() > clock.now().getTime())
      throw new AppError(ErrorCode.monthNotStarted, revenueMessages.monthNotStarted);
  };

  return {
    checkMonth,

    /**
     * Calculates `month` (replacing its rows) and records the run; 409 while another run of
     * the same month holds its lock.
     */
    async calculate(month: string, by: string | null): Promise<RunRow> {
      checkMonth(month);
      const started = Date.now();
      const run = await revenue.calculate(month, monthRange(month), runModel, {
        at: clock.now(),
        by,
      });
      if (!run) throw new AppError(ErrorCode.revenueRunInProgress, revenueMessages.runInProgress);
      log.info(
        { month, artists: run.artistsProcessed, ms: Date.now() - started },
        'revenue month calculated',
      );
      return run;
    },

    /** The admin screen's button: the current UTC month. */
    calculateCurrent(by: string | null) {
      return this.calculate(monthOf(clock.now()), by);
    },

    lastRun: () => revenue.lastRun(),

    async months(artistId: string) {
      return { items: (await revenue.months(artistId)).map(monthDto) };
    },

    /** A CSV statement of one month or one calendar year: a line per month and a total. */
    async statement(artistId: string, query: { month?: string; year?: string }) {
      const range = query.month
        ? { from: query.month, to: query.month }
        : { from: `${query.year}-01`, to: `${query.year}-12` };
      const rows = (await revenue.months(artistId, range)).reverse();
      return {
        filename: `canto-statement-${query.month ?? query.year}.csv`,
        csv: statementCsv(rows),
      };
    },
  };
}
