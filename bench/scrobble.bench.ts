/**
 * Scrobble bench (docs/decisions/0038): 10,000 completed plays' scrobbles enqueued through
 * the real path (each play crossing the rule makes its delivery and job in one transaction),
 * then drained by one worker (one job queue, the module's own concurrency) against the local
 * ListenBrainz fake, on PostgreSQL. Target: drained in < 60 s. Beside it, measured in the same
 * run: the same number of plain HTTP POSTs of the same listens to the fake from one loop (the
 * network part alone, one at a time), and the queue draining as many no-op jobs (its own part).
 *
 * Run alone: npx tsx bench/scrobble.bench.ts   (SCROBBLE_BENCH_PLAYS)
 */
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { systemClock } from '../src/core/clock.ts';
import type { Database } from '../src/server/db/client.ts';
import { createJobQueue, type JobQueue } from '../src/server/jobs/job-queue.ts';
import type { SongPlayListener } from '../src/server/modules/listening/listening.module.ts';
import { createScrobblingModule } from '../src/server/modules/scrobbling/scrobbling.module.ts';
import { createScrobblingRepository } from '../src/server/modules/scrobbling/scrobbling.repository.ts';
import { createSecretBox } from '../src/server/security/secret-box.ts';
import {
  startFakeListenBrainz,
  type FakeListenBrainz,
} from '../tests/helpers/fake-listenbrainz.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { postgresReachable, withBenchPostgres } from './catalogue.bench.ts';

const PLAYS = Number(process.env.SCROBBLE_BENCH_PLAYS ?? 10_000);
const TARGET_S = 60;
const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';
const TOKEN = 'bench-listenbrainz-token';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const queueOf = (database: Database) =>
  createJobQueue({
    database,
    clock: systemClock,
    log: quiet,
    pollIntervalMs: 1000,
    leaseSeconds: 60,
    stopTimeoutSeconds: 5,
  });

async function until(check: () => Promise<boolean> | boolean, pollMs = 50): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, pollMs));
}

/** A listener connected to the fake, a song, and `count` plays of it (not yet heard). */
async function seed(database: Database, count: number) {
  const { db } = database;
  const [user] = (
    (await db.execute(
      sql`insert into users (email, password_hash) values (${`bench-${crypto.randomUUID()}@example.com`}, 'x')
          returning id`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  const [song] = (
    (await db.execute(
      sql`insert into songs (title, artist, file_url, duration_ms)
          values ('Bench Song', 'Bench Artist', '/media/music/bench.wav', 200000) returning id`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  const playIds = (
    (await db.execute(
      sql`insert into stream_analytics (user_id, song_id, played_at, listened_ms)
          select ${user!.id}::uuid, ${song!.id}::uuid, now() - make_interval(secs => g), 0
          from generate_series(1, ${count}::int) g returning id, played_at`,
    )) as unknown as { rows: { id: string; played_at: string | Date }[] }
  ).rows;
  await createScrobblingRepository(db).connect(
    {
      userId: user!.id,
      service: 'listenbrainz',
      sealedSecret: createSecretBox(SECRET_KEY, 'scrobbling').seal(TOKEN),
      accountName: 'bench',
    },
    new Date(),
    async () => {},
  );
  return { userId: user!.id, songId: song!.id, plays: playIds };
}

/** The baseline: each listen POSTed to the fake in turn, by one loop with keep-alive. */
async function plainPosts(fake: FakeListenBrainz, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${fake.url}/1/submit-listens`, {
      method: 'POST',
      headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        listen_type: 'single',
        payload: [
          {
            listened_at: 1_700_000_000 + i,
            track_metadata: { artist_name: 'Bench Artist', track_name: 'Bench Song' },
          },
        ],
      }),
    });
    await res.arrayBuffer();
  }
  return (performance.now() - started) / 1000;
}

/** The queue's own part: as many no-op jobs drained by one worker at the same concurrency. */
async function noopDrain(database: Database, count: number): Promise<number> {
  const queue = queueOf(database);
  let done = 0;
  queue.register('bench.scrobble-noop', async () => void (done += 1), { concurrency: 8 });
  for (let i = 0; i < count; i++) await queue.enqueue('bench.scrobble-noop', {});
  const started = performance.now();
  await queue.start();
  await until(() => done >= count);
  const seconds = (performance.now() - started) / 1000;
  await queue.stop();
  return seconds;
}

async function scrobbleDrain(database: Database, fake: FakeListenBrainz, log: Log) {
  const { userId, songId, plays } = await seed(database, PLAYS);
  let listener: SongPlayListener = {};
  const queue: JobQueue = queueOf(database);
  createScrobblingModule(
    { secretKey: SECRET_KEY, database, clock: systemClock, log: quiet, jobs: queue },
    {
      listening: { onSongPlays: (l) => void (listener = l) },
      settings: {
        listenBrainzUrl: fake.url,
        lastfm: { apiUrl: 'http://127.0.0.1:9/2.0/', authUrl: 'http://127.0.0.1:9' },
        allowPrivate: true,
        publicUrl: 'http://localhost:3000',
        retrySeconds: 5,
      },
    },
  );
  // Enqueued as the listening module announces them: each play heard to its end.
  let t = performance.now();
  for (const p of plays)
    await listener.progressed!({
      playId: p.id,
      userId,
      songId,
      playedAt: new Date(p.played_at),
      durationMs: 200_000,
      previousMs: 0,
      listenedMs: 200_000,
    });
  const enqueueS = (performance.now() - t) / 1000;
  log(`  enqueued ${PLAYS} scrobbles in ${enqueueS.toFixed(1)} s`);

  const before = fake.listens.length;
  t = performance.now();
  await queue.start();
  await until(() => fake.listens.length - before >= PLAYS);
  await until(async () => {
    const [r] = (
      (await database.db.execute(
        sql`select count(*)::int as n from scrobble_deliveries where state = 'sent'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows;
    return Number(r!.n) >= PLAYS;
  }, 100);
  const drainS = (performance.now() - t) / 1000;
  await queue.stop();
  const sent = fake.listens.length - before;
  log(`  drained in ${drainS.toFixed(1)} s (${sent} listens received)`);
  return { drainS, sent };
}

export async function scrobbleBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  if (!(await postgresReachable()))
    return [unavailable(`PostgreSQL: drain ${PLAYS} scrobbles`, 'server not reachable')];
  const fake = await startFakeListenBrainz();
  fake.tokens.set(TOKEN, 'bench');
  try {
    return await withBenchPostgres(async (database) => {
      const posts = await plainPosts(fake, PLAYS);
      log(`  ${PLAYS} plain POSTs from one loop: ${posts.toFixed(1)} s`);
      const noop = await noopDrain(database, PLAYS);
      log(`  ${PLAYS} no-op jobs drained: ${noop.toFixed(1)} s`);
      const { drainS, sent } = await scrobbleDrain(database, fake, log);
      const target = { text: `< ${TARGET_S} s`, met: drainS < TARGET_S && sent === PLAYS };
      return [
        row(`PostgreSQL: drain ${PLAYS} scrobbles, one worker`, drainS, posts, 'lower', {
          unit: 's',
          baselineName: 'plain POSTs, one loop',
          target,
        }),
        row(`PostgreSQL: drain ${PLAYS} scrobbles vs no-op jobs`, drainS, noop, 'lower', {
          unit: 's',
          baselineName: 'no-op jobs drained',
        }),
      ];
    });
  } finally {
    await fake.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await scrobbleBench({ log: console.log });
  console.table(rows);
  process.exit(0);
}
