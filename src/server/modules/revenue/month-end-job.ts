import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { monthOf } from '../../../core/validation/revenue.rules.ts';
import {
  monthRange,
  nextMonth,
  previousMonth,
} from '../../../core/validation/revenue-month.rules.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Log } from '../../log.ts';
import type { RevenueRepository } from './revenue.repository.ts';
import type { RevenueService } from './revenue.service.ts';

export const MONTH_END_JOB = 'revenue.month-end';

type Payload = { month: string };

/**
 * The month just ended, calculated once by the job queue (docs/decisions/0029). A job per
 * month, keyed by the month (the queue's singleton key: one queued job however many processes
 * schedule it), due at the next month's first instant; it survives restarts as a row. Its
 * handler skips a month that already has a run from after its end (a retry, a second
 * process's job, an admin's run), then schedules the next month.
 */
export function createMonthEndJob(deps: {
  jobs: Pick<JobQueue, 'register' | 'enqueue'>;
  revenue: RevenueService;
  runs: Pick<RevenueRepository, 'ranSince'>;
  clock: Pick<Clock, 'now'>;
  log: Log;
}) {
  const { jobs, revenue, runs, clock, log } = deps;

  const scheduleMonth = (month: string) =>
    jobs.enqueue(MONTH_END_JOB, { month } satisfies Payload, {
      singletonKey: month,
      delayMs: Math.max(0, monthRange(month).end.getTime() - clock.now().getTime()),
      maxAttempts: 10,
    });

  return {
    register() {
      jobs.register<Payload>(MONTH_END_JOB, async (job) => {
        const { month } = job.payload;
        if (await runs.ranSince(month, monthRange(month).end)) {
          log.info({ month }, 'revenue month already calculated after its end; skipped');
        } else {
          try {
            await revenue.calculate(month, null);
          } catch (error) {
            // Another run of the month is going: its result stands once it commits.
            if (!(error instanceof AppError && error.code === ErrorCode.revenueRunInProgress))
              throw error;
            throw new Error(`revenue run of ${month} in progress; retrying`, { cause: error });
          }
        }
        await scheduleMonth(nextMonth(month));
      });
    },

    /**
     * At start-up: the current month's job (due when it ends) and, when the month just ended
     * has no final run yet (the server was down at the turn), that month's job, due now.
     */
    async schedule() {
      const current = monthOf(clock.now());
      const ended = previousMonth(current);
      if (!(await runs.ranSince(ended, monthRange(ended).end))) await scheduleMonth(ended);
      await scheduleMonth(current);
    },
  };
}
