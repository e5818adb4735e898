import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql-results.ts';

/**
 * The queue's SQL (docs/decisions/0013). Every time is passed in from the Clock, never the
 * database's now(), so that run_at, leases and backoff all read one clock (tests move it).
 * Raw SQL because the claim needs a locking CTE and the singleton insert needs ON CONFLICT
 * on a partial index; rows are mapped by hand so both drivers give the same shapes.
 */

/** The PostgreSQL channel a committed enqueue notifies, so idle workers wake at once. */
export const JOBS_CHANNEL = 'canto_jobs';

export type JobRow = {
  id: string;
  name: string;
  payload: unknown;
  state: 'queued' | 'running' | 'done' | 'dead';
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

export type NewJob = {
  name: string;
  payload: unknown;
  runAt: Date;
  maxAttempts: number;
  singletonKey?: string;
};

type Raw = Record<string, unknown>;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const date = (v: unknown) => (v == null ? null : new Date(v as string | Date));

function toJob(r: Raw): JobRow {
  return {
    // int8: node-postgres gives a string, PGlite a number.
    id: String(r.id),
    name: r.name as string,
    payload: r.payload,
    state: r.state as JobRow['state'],
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    runAt: date(r.run_at)!,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: date(r.created_at)!,
    finishedAt: date(r.finished_at),
  };
}

const rows = (db: Db, query: SQL): Promise<Raw[]> => queryRows<Raw>(db, query);

const COLUMNS = sql.raw(
  'id, name, payload, state, attempts, max_attempts, run_at, last_error, created_at, finished_at',
);

export type JobsRepository = ReturnType<typeof createJobsRepository>;

export function createJobsRepository(db: Db) {
  return {
    /**
     * Inserts a job (in `tx` when given, so it commits with the caller's rows) and notifies
     * JOBS_CHANNEL in the same statement: PostgreSQL delivers it on commit, never before.
     * Null when a queued or running job already holds the singleton key.
     */
    async insert(job: NewJob, tx: Db = db): Promise<string | null> {
      const found = await rows(
        tx,
        sql`with inserted as (
              insert into jobs (name, payload, max_attempts, run_at, singleton_key)
              values (${job.name}, ${JSON.stringify(job.payload ?? null)}::jsonb,
                      ${job.maxAttempts}, ${ts(job.runAt)}, ${job.singletonKey ?? null})
              on conflict (name, singleton_key)
                where singleton_key is not null and state in ('queued', 'running')
                do nothing
              returning id)
            select id, pg_notify(${JOBS_CHANNEL}, ${job.name}) from inserted`,
      );
      return found[0] ? String(found[0].id) : null;
    },

    /**
     * Takes up to `limit` due jobs of `name` for `worker` until `leaseUntil`. SKIP LOCKED:
     * two workers never take the same row, and neither waits for the other's rows. The CTE
     * is MATERIALIZED so that the locking select runs exactly once.
     */
    async claim(
      name: string,
      limit: number,
      worker: string,
      now: Date,
      leaseUntil: Date,
    ): Promise<JobRow[]> {
      const found = await rows(
        db,
        sql`with next as materialized (
              select id from jobs
              where state = 'queued' and name = ${name} and run_at <= ${ts(now)}
              order by run_at, id
              limit ${limit}
              for update skip locked)
            update jobs j
            set state = 'running', attempts = j.attempts + 1, locked_by = ${worker},
                locked_until = ${ts(leaseUntil)}, started_at = ${ts(now)}
            from next where j.id = next.id
            returning j.id, j.name, j.payload, j.state, j.attempts, j.max_attempts, j.run_at,
                      j.last_error, j.created_at, j.finished_at`,
      );
      return found.map(toJob).sort((a, b) => Number(a.id) - Number(b.id));
    },

    /** Done, if `worker` still holds it (a job whose lease was lost is not ours to finish). */
    async complete(id: string, worker: string, now: Date): Promise<boolean> {
      const found = await rows(
        db,
        sql`update jobs set state = 'done', finished_at = ${ts(now)}, locked_by = null,
                            locked_until = null
            where id = ${id} and locked_by = ${worker} and state = 'running'
            returning id`,
      );
      return found.length > 0;
    },

    /** A failed attempt: queued again at `retryAt`, or dead once its attempts are spent. */
    async fail(
      id: string,
      worker: string,
      error: string,
      now: Date,
      retryAt: Date,
    ): Promise<JobRow | null> {
      const found = await rows(
        db,
        sql`update jobs set
              state = (case when attempts >= max_attempts then 'dead' else 'queued' end)::job_state,
              run_at = case when attempts >= max_attempts then run_at else ${ts(retryAt)} end,
              finished_at = case when attempts >= max_attempts then ${ts(now)} else null end,
              last_error = ${error}, locked_by = null, locked_until = null
            where id = ${id} and locked_by = ${worker} and state = 'running'
            returning ${COLUMNS}`,
      );
      return found[0] ? toJob(found[0]) : null;
    },

    /**
     * Gives jobs back untouched (a graceful stop that could not wait for them): queued again
     * at once, and the attempt they were on is not counted against them.
     */
    async release(ids: string[], worker: string): Promise<number> {
      if (ids.length === 0) return 0;
      const found = await rows(
        db,
        sql`update jobs set state = 'queued', attempts = greatest(attempts - 1, 0),
                            locked_by = null, locked_until = null, started_at = null
            where id = any(${`{${ids.join(',')}}`}::bigint[]) and locked_by = ${worker}
              and state = 'running'
            returning id`,
      );
      return found.length;
    },

    /** Extends the leases `worker` still holds; returns the ids it still holds. */
    async renew(ids: string[], worker: string, leaseUntil: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const found = await rows(
        db,
        sql`update jobs set locked_until = ${ts(leaseUntil)}
            where id = any(${`{${ids.join(',')}}`}::bigint[]) and locked_by = ${worker}
              and state = 'running'
            returning id`,
      );
      return found.map((r) => String(r.id));
    },

    /**
     * Running jobs whose lease ran out: their worker died (kill -9, power cut) or hung. They
     * are queued again — that attempt counted, so a job that kills its worker every time
     * ends dead rather than looping.
     */
    async requeueExpired(now: Date): Promise<JobRow[]> {
      const found = await rows(
        db,
        sql`update jobs set
              state = (case when attempts >= max_attempts then 'dead' else 'queued' end)::job_state,
              finished_at = case when attempts >= max_attempts then ${ts(now)} else null end,
              run_at = ${ts(now)},
              last_error = 'the worker running it stopped before it finished (lease of '
                || coalesce(locked_by, '?') || ' expired)',
              locked_by = null, locked_until = null
            where state = 'running' and locked_until < ${ts(now)}
            returning ${COLUMNS}`,
      );
      return found.map(toJob);
    },

    /** Forgets finished jobs older than `before` (dead letters stay until someone looks). */
    async purgeDone(before: Date): Promise<number> {
      const found = await rows(
        db,
        sql`delete from jobs where state = 'done' and finished_at < ${ts(before)} returning id`,
      );
      return found.length;
    },

    /** Dead letters, newest first. */
    async dead(limit: number): Promise<JobRow[]> {
      const found = await rows(
        db,
        sql`select ${COLUMNS} from jobs where state = 'dead'
            order by finished_at desc, id desc limit ${limit}`,
      );
      return found.map(toJob);
    },

    /** Queued jobs whose last attempt failed and that wait for a retry, soonest first. */
    async retrying(limit: number): Promise<JobRow[]> {
      const found = await rows(
        db,
        sql`select ${COLUMNS} from jobs where state = 'queued' and last_error is not null
            order by run_at, id limit ${limit}`,
      );
      return found.map(toJob);
    },

    async get(id: string): Promise<JobRow | null> {
      const found = await rows(db, sql`select ${COLUMNS} from jobs where id = ${id}`);
      return found[0] ? toJob(found[0]) : null;
    },
  };
}
