import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../core/clock.ts';
import { createJobRunner } from './job-runner.ts';
import type { JobsRepository } from './jobs.repository.ts';
import { defaultBackoff } from './retry-backoff.ts';

// The worker while its database is away: it looks at the queue less and less often instead of
// every poll, logs nothing an outage's watcher has logged already, and is ready again at once
// when the database is back.

const outage = () => Object.assign(new Error('terminating connection'), { code: '57P01' });

function fakeRepository() {
  const state = { down: true, looks: 0 };
  const look = async <T>(value: T): Promise<T> => {
    state.looks += 1;
    if (state.down) throw outage();
    return value;
  };
  const repository = {
    claim: () => look([]),
    requeueExpired: () => look([]),
    purgeDone: () => look(0),
    renew: () => look([]),
  } as unknown as JobsRepository;
  return { state, repository };
}

describe('job runner during a database outage', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(() => stop?.());

  it('backs off while the queue cannot be reached, quietly, and resumes at once', async () => {
    const { state, repository } = fakeRepository();
    const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    const runner = createJobRunner({
      repository,
      clock: systemClock,
      log,
      worker: 'test',
      handlers: new Map([
        ['work', { name: 'work', run: async () => {}, concurrency: 1, backoff: defaultBackoff }],
      ]),
      pollIntervalMs: 10,
      leaseMs: 60_000,
      databaseUnavailable: () => true,
    });
    stop = () => runner.stop(0);
    await runner.start();
    await new Promise((r) => setTimeout(r, 1_000));
    // Every 10 ms would be ~100 looks; doubling waits (20, 40, … ms) make a handful.
    expect(state.looks).toBeGreaterThan(0);
    expect(state.looks).toBeLessThan(12);
    expect(runner.healthy()).toBe(false);
    expect(log.error).not.toHaveBeenCalled();

    state.down = false;
    runner.resume();
    await vi.waitFor(() => expect(runner.healthy()).toBe(true));
  });

  it('logs a failure that is no outage once, not at every poll', async () => {
    const { repository } = fakeRepository();
    const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    const runner = createJobRunner({
      repository,
      clock: systemClock,
      log,
      worker: 'test',
      handlers: new Map(),
      pollIntervalMs: 10,
      leaseMs: 60_000,
      databaseUnavailable: () => false,
    });
    stop = () => runner.stop(0);
    await runner.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});
