import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { createJobQueue, type JobQueue } from '../../src/server/jobs/job-queue.ts';
import { retryDelayMs } from '../../src/server/jobs/retry-backoff.ts';
import { TestClock, testEnv } from '../helpers/test-app.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';

/*
 * The job queue on PostgreSQL and PGlite (src/server/jobs, ADR 0013).
 * Real databases; the worker killed with SIGKILL is a real child process.
 */

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const crashWorker = path.resolve('tests/integration/job-queue-crash-worker.ts');

async function waitFor<T>(
  probe: () => Promise<T> | T,
  what: string,
  ms = 10_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function count(database: Database, query: ReturnType<typeof sql>): Promise<number> {
  const { rows } = (await database.db.execute(query)) as unknown as { rows: { n: number }[] };
  return rows[0]!.n;
}

describe.each(dbKinds)('job queue on %s', (kind) => {
  let db: TestDatabase;
  /** The database as this test file last (re)opened it. */
  let database: Database;
  const queues: JobQueue[] = [];
  const extraDatabases: Database[] = [];

  const reopen = async (): Promise<Database> =>
    kind === 'pglite' ? openPglite(path.join(db.dataDir, 'db')) : openPostgres(db.url!, 10);

  function queue(
    clock: TestClock,
    overrides: Record<string, string> = {},
    on: Database = database,
  ): JobQueue {
    const settings = testEnv({ JOB_POLL_INTERVAL_MS: '20', ...overrides }).jobs;
    const q = createJobQueue({ database: on, clock, log: quiet, ...settings });
    queues.push(q);
    return q;
  }

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    database = db.database;
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop({ timeoutMs: 1000 })));
  });
  afterAll(async () => {
    for (const extra of extraDatabases) await extra.close().catch(() => {});
    if (database !== db?.database) await database.close().catch(() => {});
    await db?.drop();
  });

  it('runs an enqueued job once, woken at once rather than at the next poll', async () => {
    const q = queue(new TestClock(), { JOB_POLL_INTERVAL_MS: '60000' });
    const seen: unknown[] = [];
    q.register('plain.job', async (job) => void seen.push([job.payload, job.attempt]));
    await q.start();
    const started = Date.now();
    const id = await q.enqueue('plain.job', { song: 'a' });
    await waitFor(() => seen.length === 1, 'the job', 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(seen).toEqual([[{ song: 'a' }, 1]]);
    await waitFor(async () => (await q.get(id!))?.state === 'done', 'done');
    await sleep(100);
    expect(seen).toHaveLength(1);
  });

  it('retries a failing job with exponential backoff, then leaves it dead with its error', async () => {
    const clock = new TestClock();
    const q = queue(clock);
    const runs: number[] = [];
    q.register(
      'always.fails',
      async (job) => {
        runs.push(job.attempt);
        throw new Error(`boom on attempt ${job.attempt}`);
      },
      { backoff: { baseMs: 10_000, maxMs: 15_000 } },
    );
    await q.start();
    const id = (await q.enqueue('always.fails', {}, { maxAttempts: 3 }))!;

    // First failure: queued again between half and all of 10 s later, error kept.
    const failedAt = clock.now().getTime();
    const first = await waitFor(async () => {
      const job = await q.get(id);
      return job?.attempts === 1 && job.state === 'queued' ? job : null;
    }, 'the first failure');
    const wait1 = first.runAt.getTime() - failedAt;
    expect(wait1).toBeGreaterThanOrEqual(5_000);
    expect(wait1).toBeLessThanOrEqual(10_000);
    expect(first.lastError).toContain('boom on attempt 1');
    expect((await q.retrying()).map((j) => j.id)).toContain(id);
    // Not before it is due, however often the worker polls.
    await sleep(200);
    expect(runs).toEqual([1]);

    clock.advance(wait1);
    const second = await waitFor(async () => {
      const job = await q.get(id);
      return job?.attempts === 2 && job.state === 'queued' ? job : null;
    }, 'the second failure');
    // Doubled (20 s) but capped at maxMs: between 7.5 and 15 s.
    const wait2 = second.runAt.getTime() - clock.now().getTime();
    expect(wait2).toBeGreaterThanOrEqual(7_500);
    expect(wait2).toBeLessThanOrEqual(15_000);

    clock.advance(wait2);
    const dead = await waitFor(async () => {
      const job = await q.get(id);
      return job?.state === 'dead' ? job : null;
    }, 'the dead letter');
    expect(runs).toEqual([1, 2, 3]);
    expect(dead.attempts).toBe(3);
    expect(dead.lastError).toContain('boom on attempt 3');
    const letters = await q.dead();
    expect(letters.find((j) => j.id === id)?.lastError).toContain('boom on attempt 3');
    expect((await q.retrying()).map((j) => j.id)).not.toContain(id);
    // Dead stays dead.
    clock.advance(60 * 60_000);
    await sleep(200);
    expect(runs).toEqual([1, 2, 3]);
  });

  it('a job recovers after failures when a later attempt succeeds', async () => {
    const clock = new TestClock();
    const q = queue(clock);
    let calls = 0;
    q.register(
      'flaky.job',
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('transient');
      },
      { backoff: { baseMs: 1000, maxMs: 1000 } },
    );
    await q.start();
    const id = (await q.enqueue('flaky.job', {}))!;
    await waitFor(async () => (await q.get(id))?.attempts === 1 && calls === 1, 'a failure');
    clock.advance(1000);
    const done = await waitFor(async () => {
      const job = await q.get(id);
      return job?.state === 'done' ? job : null;
    }, 'success');
    expect(done.attempts).toBe(2);
    expect(calls).toBe(2);
  });

  it('enqueues inside a caller transaction: the job exists only if it commits', async () => {
    const q = queue(new TestClock());
    const seen: string[] = [];
    q.register('tx.job', async (job) => void seen.push((job.payload as { n: string }).n));
    await q.start();
    await expect(
      database.db.transaction(async (tx) => {
        await q.enqueue('tx.job', { n: 'rolled back' }, { tx });
        throw new Error('the caller fails');
      }),
    ).rejects.toThrow('the caller fails');
    await database.db.transaction(async (tx) => {
      await q.enqueue('tx.job', { n: 'committed' }, { tx });
    });
    await waitFor(() => seen.length > 0, 'the committed job');
    await sleep(100);
    expect(seen).toEqual(['committed']);
    expect(
      await count(database, sql`select count(*)::int as n from jobs where name = 'tx.job'`),
    ).toBe(1);
  });

  it('a singleton key holds one queued or running job at a time', async () => {
    const q = queue(new TestClock());
    const first = await q.enqueue('single.job', { a: 1 }, { singletonKey: 'song-1' });
    expect(first).not.toBeNull();
    expect(await q.enqueue('single.job', { a: 2 }, { singletonKey: 'song-1' })).toBeNull();
    expect(await q.enqueue('single.job', { a: 3 }, { singletonKey: 'song-2' })).not.toBeNull();
    q.register('single.job', async () => {});
    await q.start();
    await waitFor(async () => (await q.get(first!))?.state === 'done', 'the first job');
    // Done: the key is free again.
    expect(await q.enqueue('single.job', { a: 4 }, { singletonKey: 'song-1' })).not.toBeNull();
  });

  it('names sharing a pool run at most its size at once between them, each getting turns', async () => {
    const q = queue(new TestClock());
    let now = 0;
    let most = 0;
    const ran: string[] = [];
    const handler = (name: string) => async () => {
      most = Math.max(most, ++now);
      ran.push(name);
      await sleep(60);
      now--;
    };
    const pool = { name: 'media', size: 2 };
    for (const name of ['pool.a', 'pool.b', 'pool.c'])
      q.register(name, handler(name), { concurrency: 2, pool });
    expect(() =>
      q.register('pool.d', async () => {}, { pool: { name: 'media', size: 3 } }),
    ).toThrow(/pool "media"/);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      for (const name of ['pool.a', 'pool.b', 'pool.c']) ids.push((await q.enqueue(name, {}))!);
    await q.start();
    await waitFor(
      async () => (await Promise.all(ids.map((id) => q.get(id)))).every((j) => j?.state === 'done'),
      'every pooled job to finish',
      20_000,
    );
    expect(most).toBe(2);
    // No name waits for another's whole backlog.
    expect(new Set(ran.slice(0, 6))).toEqual(new Set(['pool.a', 'pool.b', 'pool.c']));
  });

  it('a second stop() waits for the first to give the jobs back', async () => {
    const q = queue(new TestClock());
    q.register('held.job', (job) => {
      return new Promise<void>((_, reject) =>
        job.signal.addEventListener('abort', () => reject(job.signal.reason)),
      );
    });
    await q.start();
    const id = (await q.enqueue('held.job', {}))!;
    await waitFor(async () => (await q.get(id))?.state === 'running', 'the job to run');
    const first = q.stop({ timeoutMs: 200 });
    await q.stop({ timeoutMs: 200 });
    expect((await q.get(id))?.state).toBe('queued');
    await first;
  });

  it('graceful stop lets a running job finish', async () => {
    const q = queue(new TestClock());
    let finished = false;
    let started = false;
    q.register('slow.job', async () => {
      started = true;
      await sleep(300);
      finished = true;
    });
    await q.start();
    const id = (await q.enqueue('slow.job', {}))!;
    await waitFor(() => started, 'the job to start');
    await q.stop({ timeoutMs: 5000 });
    expect(finished).toBe(true);
    expect((await q.get(id))?.state).toBe('done');
  });

  it('stop gives back a job that does not finish in time, uncounted, and it runs elsewhere', async () => {
    const clock = new TestClock();
    const q = queue(clock);
    let aborted = false;
    q.register('stuck.job', (job) => {
      return new Promise<void>((_, reject) =>
        job.signal.addEventListener('abort', () => {
          aborted = true;
          reject(job.signal.reason);
        }),
      );
    });
    await q.start();
    const id = (await q.enqueue('stuck.job', {}))!;
    await waitFor(async () => (await q.get(id))?.state === 'running', 'the job to run');
    await q.stop({ timeoutMs: 100 });
    expect(aborted).toBe(true);
    const back = await q.get(id);
    expect(back?.state).toBe('queued');
    expect(back?.attempts).toBe(0);
    expect(back?.lastError).toBeNull();

    const next = queue(clock);
    const runs: number[] = [];
    next.register('stuck.job', async (job) => void runs.push(job.attempt));
    await next.start();
    await waitFor(async () => (await next.get(id))?.state === 'done', 'the job elsewhere');
    expect(runs).toEqual([1]);
  });

  it('a job survives a restart: enqueued, the database closed and reopened, then run', async () => {
    const clock = new TestClock();
    const before = queue(clock);
    const id = (await before.enqueue('restart.job', { keep: true }))!;
    await before.stop();
    await database.close();
    database = await reopen();

    const after = queue(clock);
    const seen: unknown[] = [];
    after.register('restart.job', async (job) => void seen.push(job.payload));
    await after.start();
    await waitFor(async () => (await after.get(id))?.state === 'done', 'the job after restart');
    expect(seen).toEqual([{ keep: true }]);
  });

  it('two workers take 200 jobs: each runs exactly once, never twice at once', async () => {
    // On PostgreSQL each worker has its own pool, as two processes would.
    const other = kind === 'postgres' ? await openPostgres(db.url!, 10) : database;
    if (other !== database) extraDatabases.push(other);
    const clock = new TestClock();
    const runs = new Map<string, string[]>();
    const inFlight = new Set<string>();
    let overlaps = 0;
    const workers = [queue(clock, {}, database), queue(clock, {}, other)];
    for (const w of workers) {
      w.register(
        'race.job',
        async (job) => {
          if (inFlight.has(job.id)) overlaps += 1;
          inFlight.add(job.id);
          runs.set(job.id, [...(runs.get(job.id) ?? []), w.worker]);
          await sleep(2);
          inFlight.delete(job.id);
        },
        { concurrency: 4 },
      );
    }
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) ids.add((await workers[0]!.enqueue('race.job', { i }))!);
    expect(ids.size).toBe(200);
    await Promise.all(workers.map((w) => w.start()));
    await waitFor(
      async () =>
        (await count(
          database,
          sql`select count(*)::int as n from jobs where name = 'race.job' and state <> 'done'`,
        )) === 0,
      'all 200 jobs',
      30_000,
    );
    expect(overlaps).toBe(0);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((by) => by.length === 1)).toBe(true);
    const retried = sql`select count(*)::int as n from jobs where name = 'race.job' and attempts <> 1`;
    expect(await count(database, retried)).toBe(0);
    // Both took work (each is woken by the other's notifications and its own polls).
    const byWorker = new Set([...runs.values()].map((by) => by[0]));
    expect(byWorker.size).toBe(2);
  });

  it('a worker killed with SIGKILL mid-job: the job waits out its lease, then runs again', async () => {
    const clock = new TestClock();
    const id = (await queue(clock).enqueue('crash.test', { track: 7 }))!;
    // PGlite is one process's database: hand the directory to the child.
    if (kind === 'pglite') await database.close();
    const child = spawn(process.execPath, ['--import', 'tsx', crashWorker], {
      env: {
        ...process.env,
        JOB_TEST_DB_URL: db.url ?? '',
        JOB_TEST_DB_DIR: path.join(db.dataDir, 'db'),
        JOB_TEST_LEASE_SECONDS: '30',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    child.stderr!.on('data', (c: Buffer) => (err += c));
    const exited = new Promise<string | null>((r) => child.once('exit', (_c, s) => r(s)));
    try {
      await waitFor(() => out.includes(`claimed ${id} 1`), `the child to claim (${err})`, 20_000);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    if (kind === 'pglite') database = await reopen();

    const runs: number[] = [];
    // The clock of the next worker first reads "now": the dead worker's lease still holds.
    clock.advance(Math.max(0, Date.now() - clock.now().getTime()));
    const next = queue(clock);
    next.register('crash.test', async (job) => void runs.push(job.attempt));
    await next.start();
    await sleep(300);
    expect(runs).toEqual([]);
    expect((await next.get(id))?.state).toBe('running');

    clock.advance(31_000);
    const done = await waitFor(async () => {
      const job = await next.get(id);
      return job?.state === 'done' ? job : null;
    }, 'the re-run');
    expect(runs).toEqual([2]);
    expect(done.attempts).toBe(2);
    expect(done.lastError).toContain('lease');
  }, 60_000);
});

describe('retry backoff', () => {
  it('doubles from the base, caps at the max, and jitters within the upper half', () => {
    const b = { baseMs: 1000, maxMs: 60_000 };
    expect(retryDelayMs(1, b, () => 0)).toBe(500);
    expect(retryDelayMs(1, b, () => 1)).toBe(1000);
    expect(retryDelayMs(3, b, () => 1)).toBe(4000);
    expect(retryDelayMs(3, b, () => 0)).toBe(2000);
    expect(retryDelayMs(30, b, () => 1)).toBe(60_000);
    expect(retryDelayMs(1000, b, () => 0.5)).toBe(45_000);
  });
});
