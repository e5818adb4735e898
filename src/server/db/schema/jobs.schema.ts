import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, lengthBetween } from './columns.ts';

// The job queue (src/server/jobs, docs/decisions/0013). A failed attempt that will be retried
// goes back to 'queued' with a later run_at and its last_error; 'dead' is the dead letter.
export const jobStateEnum = pgEnum('job_state', ['queued', 'running', 'done', 'dead']);

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

export const jobs = pgTable(
  'jobs',
  {
    // An identity, not a random id: it breaks run_at ties in enqueue order.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull().default({}),
    state: jobStateEnum('state').notNull().default('queued'),
    /** Attempts started, the running one included. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamptz('run_at').notNull().defaultNow(),
    /** The worker holding the job while it runs, until locked_until (its lease). */
    lockedBy: text('locked_by'),
    lockedUntil: timestamptz('locked_until'),
    lastError: text('last_error'),
    /** At most one queued or running job per (name, key): a second enqueue is a no-op. */
    singletonKey: text('singleton_key'),
    createdAt: createdAt(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    lengthBetween('jobs_name_len', t.name, 1, 100),
    check('jobs_attempts_range', sql`${t.attempts} >= 0 and ${t.maxAttempts} >= 1`),
    // What a claim reads: due jobs of one name, oldest first.
    index('jobs_claim_idx')
      .on(t.name, t.runAt, t.id)
      .where(sql`${t.state} = 'queued'`),
    // What the lease sweep reads: running jobs whose worker stopped renewing.
    index('jobs_lease_idx')
      .on(t.lockedUntil)
      .where(sql`${t.state} = 'running'`),
    // The dead letters, newest first, and the purge of old finished jobs.
    index('jobs_finished_idx')
      .on(t.state, t.finishedAt)
      .where(sql`${t.state} in ('done', 'dead')`),
    uniqueIndex('jobs_singleton_uq')
      .on(t.name, t.singletonKey)
      .where(sql`${t.singletonKey} is not null and ${t.state} in ('queued', 'running')`),
  ],
);
