import crypto from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../../core/clock.ts';
import type { Database, Db } from '../db/client.ts';
import { createJobRunner, type JobHandler, type RegisteredHandler } from './job-runner.ts';
import { createJobsRepository, JOBS_CHANNEL, type JobRow } from './jobs.repository.ts';
import { defaultBackoff, type Backoff } from './retry-backoff.ts';
import type { Log } from '../log.ts';

export type { Job, JobHandler } from './job-runner.ts';
export type { Backoff } from './retry-backoff.ts';

/** A job as an admin view shows it (no lease details). */
export type JobInfo = JobRow;

export type EnqueueOptions = {
  /** The caller's transaction: the job exists only if it commits (and workers hear of it then). */
  tx?: Db;
  /** Not before this long from now (the Clock's now). */
  delayMs?: number;
  /** Attempts before the job is dead (default 5). */
  maxAttempts?: number;
  /** While a job of this name and key is queued or running, enqueue does nothing (null). */
  singletonKey?: string;
};

export type RegisterOptions = {
  /** Jobs of this name this process runs at once (default 1). */
  concurrency?: number;
  /**
   * A cap shared with other names: at most `size` jobs of all the names naming this pool run
   * at once in this process (every name must give the same size).
   */
  pool?: { name: string; size: number };
  backoff?: Backoff;
  /**
   * Called in the worker that saw a job of this name go dead: its last attempt failed, or its
   * worker died during it (then this runs in whichever worker noticed the expired lease, if
   * that process registered the name). For state the job's owner must mark as failed.
   */
  onDead?: (job: JobInfo) => Promise<void>;
};

export type JobQueue = {
  /** The handler for jobs named `name` in this process; register before start(). */
  register<P>(name: string, handler: JobHandler<P>, options?: RegisterOptions): void;
  /** Adds a job; its id, or null when the singleton key is taken. */
  enqueue(name: string, payload: unknown, options?: EnqueueOptions): Promise<string | null>;
  /** Starts this process's worker: claims due jobs of the registered names. */
  start(): Promise<void>;
  /**
   * Takes no more jobs, lets running ones finish for up to `timeoutMs` (default
   * JOB_STOP_TIMEOUT_SECONDS), then gives the rest back to the queue.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Dead letters, newest first, with the last error. */
  dead(limit?: number): Promise<JobInfo[]>;
  /** Jobs whose last attempt failed and that wait for their retry, soonest first. */
  retrying(limit?: number): Promise<JobInfo[]>;
  get(id: string): Promise<JobInfo | null>;
  /** This worker's name (locked_by). */
  readonly worker: string;
  /** Whether the worker is not stopping and its last look at the queue reached it (readiness). */
  healthy(): boolean;
  /** The database is back after an outage: the worker looks at the queue at once. */
  resume(): void;
};

export type JobQueueOptions = {
  database: Database;
  clock: Clock;
  log: Log;
  pollIntervalMs: number;
  leaseSeconds: number;
  stopTimeoutSeconds: number;
  /**
   * The wait before a failed job's first retry, for handlers without their own backoff
   * (JOB_RETRY_SECONDS; default 5): it doubles with each further failure, up to an hour.
   */
  retrySeconds?: number;
  /** Told of a failure that may be the database's absence; true when it is (an outage). */
  databaseUnavailable?: (error: unknown) => boolean;
};

const NAME = /^[a-z0-9][a-z0-9._:-]{0,99}$/;

/**
 * A job queue on the app's own PostgreSQL or PGlite database (docs/decisions/0013): work that
 * must not hold a request is enqueued as a row and run by a worker in some process.
 * At-least-once: a job runs again if its worker dies mid-way, so handlers must be idempotent;
 * but never by two workers at once while the one running it is alive (leases are renewed).
 */
export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { database, clock } = options;
  const repository = createJobsRepository(database.db);
  const handlers = new Map<string, RegisteredHandler>();
  const queueBackoff: Backoff = options.retrySeconds
    ? { ...defaultBackoff, baseMs: options.retrySeconds * 1000 }
    : defaultBackoff;
  const worker = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const runner = createJobRunner({
    repository,
    clock,
    log: options.log,
    worker,
    handlers,
    pollIntervalMs: options.pollIntervalMs,
    leaseMs: options.leaseSeconds * 1000,
    listen: (onName) => database.listen(JOBS_CHANNEL, onName),
    databaseUnavailable: options.databaseUnavailable,
  });

  const checkName = (name: string) => {
    if (!NAME.test(name)) throw new Error(`job name "${name}" must match ${NAME}`);
  };

  return {
    worker,

    register(name, handler, opts = {}) {
      checkName(name);
      if (handlers.has(name)) throw new Error(`job "${name}" already has a handler`);
      const concurrency = opts.concurrency ?? 1;
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new Error('concurrency must be a positive integer');
      const pool = opts.pool;
      if (pool) {
        if (!Number.isInteger(pool.size) || pool.size < 1)
          throw new Error('a pool size must be a positive integer');
        for (const other of handlers.values())
          if (other.pool?.name === pool.name && other.pool.size !== pool.size)
            throw new Error(`pool "${pool.name}" has size ${other.pool.size} already`);
      }
      handlers.set(name, {
        name,
        run: handler as JobHandler<any>,
        concurrency,
        pool,
        backoff: opts.backoff ?? queueBackoff,
        onDead: opts.onDead,
      });
    },

    async enqueue(name, payload, opts = {}) {
      checkName(name);
      const maxAttempts = opts.maxAttempts ?? 5;
      if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
        throw new Error('maxAttempts must be a positive integer');
      const id = await repository.insert(
        {
          name,
          payload,
          maxAttempts,
          runAt: new Date(clock.now().getTime() + (opts.delayMs ?? 0)),
          singletonKey: opts.singletonKey,
        },
        opts.tx,
      );
      // Outside a transaction the row is committed already: no need to wait for the
      // notification's round trip. Inside one, the notification comes with the commit.
      if (id && !opts.tx && handlers.has(name)) runner.wake();
      return id;
    },

    start: () => runner.start(),
    healthy: () => runner.healthy(),
    resume: () => runner.resume(),
    stop: (opts = {}) => runner.stop(opts.timeoutMs ?? options.stopTimeoutSeconds * 1000),
    dead: (limit = 100) => repository.dead(limit),
    retrying: (limit = 100) => repository.retrying(limit),
    get: (id) => repository.get(id),
  };
}
