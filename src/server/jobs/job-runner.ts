import type { Clock } from '../../core/clock.ts';
import type { JobRow, JobsRepository } from './jobs.repository.ts';
import { retryDelayMs, type Backoff } from './retry-backoff.ts';
import type { Log } from '../log.ts';

/** What a handler is given. `signal` aborts when the worker gives the job up (stop, lost lease). */
export type Job<P = unknown> = {
  id: string;
  name: string;
  payload: P;
  /** 1 on the first attempt. */
  attempt: number;
  maxAttempts: number;
  signal: AbortSignal;
};

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<void>;

export type RegisteredHandler = {
  name: string;
  run: JobHandler<any>;
  concurrency: number;
  /** Handlers naming the same pool share its slots (media jobs of every kind: MEDIA_WORKERS). */
  pool?: { name: string; size: number };
  backoff: Backoff;
  onDead?: (job: JobRow) => Promise<void>;
};

type Running = {
  job: JobRow;
  controller: AbortController;
  done: Promise<void>;
  /** Given back by stop(): its outcome, if it ever comes, is not written. */
  released: boolean;
};

export type RunnerOptions = {
  repository: JobsRepository;
  clock: Clock;
  log: Log;
  /** This worker's name in locked_by: host, process and a random part. */
  worker: string;
  handlers: ReadonlyMap<string, RegisteredHandler>;
  /** How often to look for due jobs that no notification announced (retries, other hosts). */
  pollIntervalMs: number;
  /** How long a claim holds a job without renewal; renewed every third of it while it runs. */
  leaseMs: number;
  /** Subscribes to enqueue notifications; returns the unsubscribe. */
  listen?: (onName: (name: string) => void) => Promise<() => Promise<void>>;
  /** Told of each failure to reach the queue; true when it is the database's absence. */
  databaseUnavailable?: (error: unknown) => boolean;
  /** The longest wait between looks at the queue while it cannot be reached (ms). */
  maxBackoffMs?: number;
  /** Elapsed real time (ms), for the backoff; the jobs' own times follow `clock`. */
  elapsed?: () => number;
};

/** Finished jobs are kept this long (for debugging), then purged. */
const KEEP_DONE_MS = 7 * 24 * 60 * 60_000;
const PURGE_EVERY_MS = 60 * 60_000;
const MAX_ERROR_CHARS = 4000;

function describeError(error: unknown): string {
  const text =
    error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.slice(0, MAX_ERROR_CHARS);
}

/**
 * The worker side of the queue (docs/decisions/0013): claims due jobs for the registered
 * handlers up to each one's concurrency, runs them, records the outcome, renews the leases
 * of what runs, and re-queues jobs whose worker died. One pump at a time per process; a
 * wake-up during a pump makes it go round once more.
 */
export function createJobRunner(options: RunnerOptions) {
  const { repository, clock, log, worker, handlers, leaseMs } = options;
  const running = new Map<string, Running>();
  let started = false;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let pumping: Promise<void> | null = null;
  let again = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let lastPurge = 0;
  // While the queue cannot be reached: failures in a row, and no look before `resumeAt`.
  let failures = 0;
  let resumeAt = 0;
  const elapsed = options.elapsed ?? (() => performance.now());
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;

  let loggedFailure = false;

  /**
   * A look at the queue failed: the next look waits twice as long each time (a poll interval
   * up to maxBackoffMs). A database outage is logged by whoever watches the database; any
   * other failure is logged once per run of failures.
   */
  function unreachable(error: unknown, what: string): void {
    const outage = options.databaseUnavailable?.(error) ?? false;
    failures += 1;
    const wait = Math.min(maxBackoffMs, options.pollIntervalMs * 2 ** failures);
    resumeAt = elapsed() + wait;
    if (!outage && !loggedFailure) {
      loggedFailure = true;
      log.error({ err: error, retryInMs: wait }, `job queue: ${what} failed; backing off`);
    }
  }

  function reachable(): void {
    if (failures === 0) return;
    if (loggedFailure) log.info({ failures }, 'job queue: the queue answers again');
    failures = 0;
    resumeAt = 0;
    loggedFailure = false;
  }

  const runningOf = (name: string) => [...running.values()].filter((r) => r.job.name === name);
  const runningInPool = (pool: string) =>
    [...running.values()].filter((r) => handlers.get(r.job.name)?.pool?.name === pool).length;
  let nextHandler = 0;
  const leaseEnd = (now: Date) => new Date(now.getTime() + leaseMs);

  function wake(): void {
    if (!started || stopping) return;
    if (elapsed() < resumeAt) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump()
      .then(reachable, (error: unknown) => unreachable(error, 'claiming'))
      .finally(() => {
        pumping = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  /**
   * Claims due jobs for every name with free slots. Names sharing a pool take one job each in
   * turn, starting after the name that got the last one, so none waits for another's backlog.
   */
  async function pump(): Promise<void> {
    const all = [...handlers.values()];
    for (let claimedAny = true; claimedAny;) {
      claimedAny = false;
      const start = nextHandler;
      for (let k = 0; k < all.length; k++) {
        if (stopping) return;
        const index = (start + k) % all.length;
        const handler = all[index]!;
        const free = Math.min(
          handler.concurrency - runningOf(handler.name).length,
          handler.pool ? handler.pool.size - runningInPool(handler.pool.name) : Infinity,
        );
        if (free <= 0) continue;
        const now = clock.now();
        const want = handler.pool ? 1 : free;
        const claimed = await repository.claim(handler.name, want, worker, now, leaseEnd(now));
        for (const job of claimed) launch(handler, job);
        if (claimed.length > 0 && handler.pool) {
          claimedAny = true;
          nextHandler = (index + 1) % all.length;
        }
      }
    }
  }

  function launch(handler: RegisteredHandler, job: JobRow): void {
    const controller = new AbortController();
    const entry: Running = { job, controller, done: Promise.resolve(), released: false };
    entry.done = (async () => {
      let failure: { error: unknown } | undefined;
      try {
        await handler.run({
          id: job.id,
          name: job.name,
          payload: job.payload,
          attempt: job.attempts,
          maxAttempts: job.maxAttempts,
          signal: controller.signal,
        });
      } catch (error) {
        failure = { error };
      }
      if (entry.released) return;
      await record(handler, job, failure);
    })()
      .catch((error: unknown) =>
        // The database went away under us: the lease expires and the job runs again.
        log.error({ err: error, job: job.id, name: job.name }, 'job queue: outcome not recorded'),
      )
      .finally(() => {
        running.delete(job.id);
        wake();
      });
    running.set(job.id, entry);
  }

  async function record(
    handler: RegisteredHandler,
    job: JobRow,
    failure: { error: unknown } | undefined,
  ): Promise<void> {
    const now = clock.now();
    if (!failure) {
      if (!(await repository.complete(job.id, worker, now)))
        log.warn({ job: job.id, name: job.name }, 'job queue: finished a job it no longer held');
      return;
    }
    const retryAt = new Date(now.getTime() + retryDelayMs(job.attempts, handler.backoff));
    const row = await repository.fail(job.id, worker, describeError(failure.error), now, retryAt);
    const context = { job: job.id, name: job.name, attempt: job.attempts, err: failure.error };
    if (!row) log.warn(context, 'job queue: a job it no longer held failed');
    else if (row.state === 'dead') {
      log.error(context, 'job queue: job failed for good (dead)');
      await died(row);
    } else log.warn({ ...context, retryAt: row.runAt }, 'job queue: job failed, will retry');
  }

  async function died(job: JobRow): Promise<void> {
    try {
      await handlers.get(job.name)?.onDead?.(job);
    } catch (error) {
      log.error({ err: error, job: job.id, name: job.name }, 'job queue: onDead failed');
    }
  }

  /** Re-queues jobs of dead workers, purges old finished ones, then looks for work. */
  async function tick(): Promise<void> {
    if (elapsed() < resumeAt) return;
    const now = clock.now();
    try {
      for (const job of await repository.requeueExpired(now)) {
        log.warn(
          { job: job.id, name: job.name, state: job.state },
          'job queue: a worker stopped during a job; its lease expired',
        );
        if (job.state === 'dead') await died(job);
      }
      if (now.getTime() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now.getTime();
        await repository.purgeDone(new Date(now.getTime() - KEEP_DONE_MS));
      }
    } catch (error) {
      unreachable(error, 'the lease sweep');
      return;
    }
    wake();
  }

  async function renew(): Promise<void> {
    const ids = [...running.keys()];
    if (ids.length === 0) return;
    const held = new Set(await repository.renew(ids, worker, leaseEnd(clock.now())));
    for (const id of ids) {
      const entry = running.get(id);
      if (!entry || held.has(id)) continue;
      // Another worker may run it now: ask ours to stop, and never record its outcome.
      entry.released = true;
      entry.controller.abort(new Error('the job lease was lost'));
      log.warn({ job: id, name: entry.job.name }, 'job queue: lost the lease of a running job');
    }
  }

  /** stop()'s work, once. */
  async function stopNow(timeoutMs: number): Promise<void> {
    stopping = true;
    clearInterval(pollTimer);
    await unlisten?.().catch(() => {});
    await pumping;
    const waiting = [...running.values()];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(waiting.map((r) => r.done)),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    clearInterval(renewTimer);
    const left = [...running.values()].filter((r) => !r.released);
    for (const entry of left) {
      entry.released = true;
      entry.controller.abort(new Error('the worker is stopping'));
    }
    if (left.length > 0) {
      const ids = left.map((r) => r.job.id);
      const count = await repository
        .release(ids, worker)
        .catch((error: unknown) => (log.error({ err: error }, 'job queue: release failed'), 0));
      log.info({ jobs: ids, released: count }, 'job queue: gave unfinished jobs back');
    }
  }

  return {
    wake,

    async start(): Promise<void> {
      if (started) return;
      started = true;
      if (options.listen) {
        try {
          unlisten = await options.listen((name) => {
            if (handlers.has(name)) wake();
          });
        } catch (error) {
          log.warn({ err: error }, 'job queue: no notifications, polling only');
        }
      }
      pollTimer = setInterval(() => void tick(), options.pollIntervalMs);
      renewTimer = setInterval(
        () =>
          void renew().catch((error: unknown) =>
            log.error({ err: error }, 'job queue: lease renewal failed'),
          ),
        Math.max(Math.floor(leaseMs / 3), 10),
      );
      await tick();
    },

    /**
     * Takes no more jobs, waits up to `timeoutMs` for the running ones to finish, then gives
     * the rest back to the queue (their signal aborts) so another worker runs them at once.
     */
    stop(timeoutMs: number): Promise<void> {
      // A second call (the host's, then the app's close hook) waits for the same stop.
      if (!started) return Promise.resolve();
      return (stopped ??= stopNow(timeoutMs));
    },

    /** Jobs this worker runs right now. */
    runningCount: () => running.size,

    /** The database is back: look at the queue now instead of at the end of the backoff. */
    resume(): void {
      if (!started || stopping || failures === 0) return;
      resumeAt = 0;
      void tick();
    },

    /**
     * Not stopping, and its last look at the queue reached it (a process that has not started
     * its worker only needs the queue's database, which readiness checks itself).
     */
    healthy: () => !stopping && failures === 0,
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
