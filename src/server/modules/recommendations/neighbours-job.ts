import type { Clock } from '../../../core/clock.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Log } from '../../log.ts';
import type { RecommendationsRepository } from './recommendations.repository.ts';

export const NEIGHBOURS_JOB = 'recommendations.neighbours';

/**
 * The co-listening table's refresh (docs/decisions/0032) on the job queue. Time is cut into
 * slots of `intervalMs`; the job of a slot is keyed by it (the queue's singleton key: one
 * queued job however many processes schedule it) and due at its start. Each run rewrites
 * song_neighbours and queues the next slot's job; start-up queues the current slot's, so a
 * table left stale by downtime is refreshed at once.
 */
export function createNeighboursJob(deps: {
  jobs: Pick<JobQueue, 'register' | 'enqueue'>;
  neighbours: Pick<RecommendationsRepository, 'refreshNeighbours'>;
  clock: Pick<Clock, 'now'>;
  log: Log;
  intervalMs: number;
}) {
  const { jobs, neighbours, clock, log, intervalMs } = deps;
  const scheduleSlot = (slot: number) =>
    jobs.enqueue(
      NEIGHBOURS_JOB,
      { slot },
      {
        singletonKey: `slot:${slot}`,
        delayMs: Math.max(0, slot * intervalMs - clock.now().getTime()),
        maxAttempts: 3,
      },
    );
  const currentSlot = () => Math.floor(clock.now().getTime() / intervalMs);
  return {
    register() {
      jobs.register(NEIGHBOURS_JOB, async () => {
        const started = performance.now();
        const rows = await neighbours.refreshNeighbours();
        log.info(
          { rows, ms: Math.round(performance.now() - started) },
          'song neighbours refreshed',
        );
        await scheduleSlot(currentSlot() + 1);
      });
    },
    /** At start-up: the current slot's run, due now. */
    schedule: () => scheduleSlot(currentSlot()),
  };
}
