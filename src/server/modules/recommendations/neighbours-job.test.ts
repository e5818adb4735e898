import { describe, expect, it } from 'vitest';
import type { EnqueueOptions, JobHandler } from '../../jobs/job-queue.ts';
import { createNeighboursJob, NEIGHBOURS_JOB } from './neighbours-job.ts';

const HOUR = 3_600_000;

function harness(startMs: number) {
  let now = startMs;
  const queued: { name: string; options: EnqueueOptions }[] = [];
  const handlers = new Map<string, JobHandler<unknown>>();
  let refreshed = 0;
  const job = createNeighboursJob({
    jobs: {
      register: (name, handler) => void handlers.set(name, handler as JobHandler<unknown>),
      enqueue: async (name, _payload, options = {}) => {
        queued.push({ name, options });
        return 'id';
      },
    },
    neighbours: { refreshNeighbours: async () => ++refreshed },
    clock: { now: () => new Date(now) },
    log: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
    intervalMs: HOUR,
  });
  return {
    job,
    queued,
    handlers,
    refreshed: () => refreshed,
    advance: (ms: number) => void (now += ms),
  };
}

describe('the co-listening refresh job', () => {
  it('queues the current slot now at start-up, keyed so processes share one job', async () => {
    const h = harness(10 * HOUR + 5 * 60_000);
    await h.job.schedule();
    expect(h.queued).toEqual([
      {
        name: NEIGHBOURS_JOB,
        options: expect.objectContaining({ singletonKey: 'slot:10', delayMs: 0 }),
      },
    ]);
  });

  it('refreshes, then queues the next slot at its start', async () => {
    const h = harness(10 * HOUR + 15 * 60_000);
    h.job.register();
    const run = h.handlers.get(NEIGHBOURS_JOB)!;
    await run({ payload: { slot: 10 } } as Parameters<typeof run>[0]);
    expect(h.refreshed()).toBe(1);
    expect(h.queued).toEqual([
      {
        name: NEIGHBOURS_JOB,
        options: expect.objectContaining({ singletonKey: 'slot:11', delayMs: 45 * 60_000 }),
      },
    ]);
  });
});
