/**
 * Queue bench (docs/decisions/0013): empty jobs per second through the job queue
 * (src/server/jobs) on PostgreSQL and on PGlite, each beside a baseline measured in the same
 * run on the same database: one bare `INSERT … RETURNING id` then `UPDATE … WHERE id` per job,
 * one after the other — the least any queue must do per job (a job row written, then marked).
 *
 * - "end to end": jobs enqueued one at a time (one INSERT + NOTIFY each) while the worker
 *   claims and completes them; the clock runs from the first enqueue to the last completion.
 * - "drain": a backlog enqueued before the worker starts, timed from start to the last
 *   completion (claims in batches up to the handler's concurrency).
 *
 * PostgreSQL: a throwaway database from the app migrations (pool of 10, as the app uses).
 * PGlite: a fresh data directory, removed afterwards (one connection: all of it queues).
 *
 * Run alone: npx tsx bench/queue.bench.ts   (QUEUE_BENCH_JOBS, QUEUE_BENCH_CONCURRENCY,
 * QUEUE_BENCH_SKIP=postgres,pglite)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { systemClock } from '../src/core/clock.ts';
import { openPglite, type Database } from '../src/server/db/client.ts';
import { createJobQueue } from '../src/server/jobs/job-queue.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { postgresReachable, withBenchPostgres } from './catalogue.bench.ts';

const JOBS = Number(process.env.QUEUE_BENCH_JOBS ?? 2000);
const CONCURRENCY = Number(process.env.QUEUE_BENCH_CONCURRENCY ?? 8);
const WARMUP = 100;
const skip = (process.env.QUEUE_BENCH_SKIP ?? '').split(',');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Per second: `count` operations in `ms`. */
const perSecond = (count: number, ms: number) => (count * 1000) / ms;

/** The baseline: a bare INSERT then UPDATE round trip per job, in sequence. */
async function bareRoundTrips(database: Database, count: number): Promise<number> {
  const { db } = database;
  await db.execute(sql`create table if not exists bench_bare_jobs (
    id bigint generated always as identity primary key, payload jsonb not null,
    state text not null default 'queued')`);
  const once = async () => {
    const inserted = (await db.execute(
      sql`insert into bench_bare_jobs (payload) values ('{}'::jsonb) returning id`,
    )) as unknown as { rows: { id: string | number }[] };
    await db.execute(
      sql`update bench_bare_jobs set state = 'done' where id = ${String(inserted.rows[0]!.id)}`,
    );
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const started = performance.now();
  for (let i = 0; i < count; i++) await once();
  const ms = performance.now() - started;
  await db.execute(sql`drop table bench_bare_jobs`);
  return perSecond(count, ms);
}

/** Runs `count` empty jobs through a fresh queue; enqueued live or as a backlog first. */
async function throughQueue(
  database: Database,
  count: number,
  mode: 'end-to-end' | 'drain',
): Promise<number> {
  const queue = createJobQueue({
    database,
    clock: systemClock,
    log: quiet,
    pollIntervalMs: 1000,
    leaseSeconds: 60,
    stopTimeoutSeconds: 5,
  });
  const name = `bench.${mode}`;
  let done = 0;
  let allDone: () => void = () => {};
  const finished = new Promise<void>((resolve) => (allDone = resolve));
  queue.register(
    name,
    async () => {
      done += 1;
      if (done === count) allDone();
    },
    { concurrency: CONCURRENCY },
  );
  try {
    let started: number;
    if (mode === 'drain') {
      for (let i = 0; i < count; i++) await queue.enqueue(name, {});
      started = performance.now();
      await queue.start();
    } else {
      await queue.start();
      started = performance.now();
      for (let i = 0; i < count; i++) await queue.enqueue(name, {});
    }
    await finished;
    const ms = performance.now() - started;
    // Every job is marked done once its handler returns; wait for the last marks to land.
    await queue.stop();
    return perSecond(count, ms);
  } finally {
    await queue.stop();
    await database.db.execute(sql`delete from jobs where name = ${name}`);
  }
}

async function engineRows(engine: string, database: Database, log: Log): Promise<BenchRow[]> {
  // Warm both paths (plans, caches, the JIT of this process) before anything is timed.
  await throughQueue(database, WARMUP, 'end-to-end');
  const baseline = await bareRoundTrips(database, JOBS);
  log(`  ${engine}: bare INSERT + UPDATE ${Math.round(baseline)}/s`);
  const endToEnd = await throughQueue(database, JOBS, 'end-to-end');
  log(`  ${engine}: end to end ${Math.round(endToEnd)} jobs/s`);
  const drain = await throughQueue(database, JOBS, 'drain');
  log(`  ${engine}: drain ${Math.round(drain)} jobs/s`);
  const extra = { unit: '/s', baselineName: 'bare INSERT+UPDATE per job' } as const;
  return [
    row(
      `${engine}: empty jobs, enqueue → done (${JOBS}, concurrency ${CONCURRENCY})`,
      endToEnd,
      baseline,
      'higher',
      extra,
    ),
    row(`${engine}: empty jobs, drain a backlog of ${JOBS}`, drain, baseline, 'higher', extra),
  ];
}

export async function queueBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const rows: BenchRow[] = [];
  if (!skip.includes('postgres')) {
    if (await postgresReachable())
      rows.push(
        ...(await withBenchPostgres((database) => engineRows('PostgreSQL', database, log))),
      );
    else rows.push(unavailable('PostgreSQL: empty jobs/s', 'server not reachable'));
  }
  if (!skip.includes('pglite')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-queue-bench-'));
    const database = await openPglite(path.join(dir, 'db'));
    try {
      await database.migrate();
      rows.push(...(await engineRows('PGlite', database, log)));
    } finally {
      await database.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await queueBench({ log: console.log });
  console.table(rows);
  process.exit(0);
}
