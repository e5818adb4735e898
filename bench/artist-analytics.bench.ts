/**
 * Artist dashboard bench (spec §2 Artist dashboard; the issue's target: p95 < 50 ms for an
 * artist with 1,000,000 streams on PostgreSQL), through the real app (buildApp + listen on
 * 127.0.0.1) on a throwaway PostgreSQL database:
 *
 * - Data: the measured artist's 1,000,000 stream records (200 songs, 10 % of plays on the 20
 *   episodes of one show) spread over the last year, interleaved with 1,000,000 plays of
 *   2,000 other songs, by 10,000 listeners; 5,000 followers over 60 days; three calculated
 *   months. Rows from INSERT … SELECT generate_series (foreign keys and the listener-totals
 *   triggers bypassed: the dashboard does not read those totals), then VACUUM ANALYZE.
 * - The first GET /api/artist/analytics (it counts the 29 finished days once into
 *   artist_daily_analytics), then p50/p95 of 200 sequential requests beside 200 of
 *   GET /api/health, then 10 s of autocannon (8 connections) on each: req/s and p97.5.
 *
 * Run alone: npx tsx bench/artist-analytics.bench.ts   (ARTIST_BENCH_PLAYS: the artist's plays;
 * ARTIST_BENCH_KEEP=<database>: keep the loaded database and measure it again next time)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/server/db/client.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { percentile, postgresReachable, startApp, withBenchPostgres } from './catalogue.bench.ts';
import { signIn } from './server-process.ts';

const TARGET_P95_MS = 50;
const SAMPLES = 200;
const LISTENERS = 10_000;
const ARTIST_SONGS = 200;
const EPISODES = 20;
const OTHER_SONGS = 2_000;
const FOLLOWERS = 5_000;
const round = (n: number) => Math.round(n * 100) / 100;

type SQL = ReturnType<typeof sql>;
/** A version-4-shaped uuid from md5, so rows can name each other without a lookup. */
const uuidOf = (prefix: string, k: SQL) => {
  const h = sql`md5(${prefix}::text || ${k})`;
  return sql`(left(${h}, 12) || '4' || substr(${h}, 14, 3) || '8' || substr(${h}, 18, 15))::uuid`;
};
const k = sql.raw('k');
const pick = (salt: number, n: number) => sql.raw(`(abs(hashint8extended(i, ${salt})) % ${n})`);
/** Skewed towards a popular few of n. */
const skewed = (salt: number, n: number) =>
  sql.raw(`floor(${n} * power((abs(hashint8extended(i, ${salt})) % 1000000) / 1000000.0, 3))::int`);

async function load(database: Database, artistId: string, plays: number): Promise<number> {
  const t = performance.now();
  const db = database.db;
  await db.execute(sql`insert into user_roles (user_id, role) values (${artistId}, 'artist')`);
  await db.execute(sql`
    insert into users (id, email, password_hash)
    select ${uuidOf('bench-listener-', k)}, 'bench-listener-' || k || '@bench.local', 'x'
    from generate_series(0, ${LISTENERS - 1}) k`);
  await db.execute(sql`
    insert into songs (id, artist_id, title, artist, genre, file_url, duration_ms)
    select ${uuidOf('bench-asong-', k)}, ${artistId}, 'Artist Song ' || k, 'Bench Artist', 'Pop',
           '/media/music/bench.wav', 180000
    from generate_series(0, ${ARTIST_SONGS - 1}) k`);
  await db.execute(sql`
    insert into songs (id, title, artist, genre, file_url, duration_ms)
    select ${uuidOf('bench-osong-', k)}, 'Other Song ' || k, 'Other ' || (k % 100), 'Rock',
           '/media/music/bench.wav', 180000
    from generate_series(0, ${OTHER_SONGS - 1}) k`);
  await db.execute(sql`
    insert into podcasts (id, creator_id, title)
    values (${uuidOf('bench-show-', sql`0`)}, ${artistId}, 'Bench Show')`);
  await db.execute(sql`
    insert into podcast_episodes (id, podcast_id, title, audio_url, episode_number)
    select ${uuidOf('bench-episode-', k)}, ${uuidOf('bench-show-', sql`0`)}, 'Episode ' || k,
           '/media/podcasts/bench.wav', k + 1
    from generate_series(0, ${EPISODES - 1}) k`);
  // One year back from now, evenly: the artist's plays and everyone else's interleaved.
  const step = (365 * 86_400) / plays;
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into stream_analytics (user_id, song_id, podcast_episode_id, played_at, listened_ms)
      select ${uuidOf('bench-listener-', sql`${pick(1, LISTENERS)}`)},
        case when i % 10 <> 0 then ${uuidOf('bench-asong-', sql`${skewed(2, ARTIST_SONGS)}`)} end,
        case when i % 10 = 0 then ${uuidOf('bench-episode-', sql`${pick(3, EPISODES)}`)} end,
        now() - ((${plays}::bigint - i) * ${step}::float8 * interval '1 second'),
        ${pick(4, 180000)}
      from generate_series(0, ${plays - 1}::bigint) as i`);
    await tx.execute(sql`
      insert into stream_analytics (user_id, song_id, played_at, listened_ms)
      select ${uuidOf('bench-listener-', sql`${pick(5, LISTENERS)}`)},
        ${uuidOf('bench-osong-', sql`${skewed(6, OTHER_SONGS)}`)},
        now() - ((${plays}::bigint - i) * ${step}::float8 * interval '1 second') - interval '1 second',
        ${pick(7, 180000)}
      from generate_series(0, ${plays - 1}::bigint) as i`);
    await tx.execute(sql`
      update songs s set play_count = c.n
      from (select song_id, count(*) as n from stream_analytics where song_id is not null
            group by song_id) c
      where s.id = c.song_id`);
    await tx.execute(sql`
      insert into user_follows (follower_id, following_id, created_at)
      select ${uuidOf('bench-listener-', k)}, ${artistId}, now() - (k * interval '17 minutes')
      from generate_series(0, ${FOLLOWERS - 1}) k`);
    await tx.execute(sql`
      insert into artist_revenue (artist_id, month, total_streams)
      values (${artistId}, to_char(now() - interval '3 months', 'YYYY-MM'), 80000),
             (${artistId}, to_char(now() - interval '2 months', 'YYYY-MM'), 82000),
             (${artistId}, to_char(now() - interval '1 month', 'YYYY-MM'), 85000)`);
  });
  await db.execute(sql`vacuum analyze`);
  return round((performance.now() - t) / 1000);
}

async function latencies(url: string, token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let j = 0; j < n; j++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

async function cannon(url: string, token: string, seconds: number) {
  const result = await autocannon({
    url,
    connections: 8,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const latency = result.latency as typeof result.latency & { p97_5: number };
  return { rps: result.requests.average, p97_5: latency.p97_5 };
}

export async function artistAnalyticsBench({ log = console.log }: { log?: Log } = {}): Promise<
  BenchRow[]
> {
  if (!(await postgresReachable())) return [unavailable('artist analytics', 'no PostgreSQL')];
  const plays = Number(process.env.ARTIST_BENCH_PLAYS ?? 1_000_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-artist-'));
  try {
    return await withBenchPostgres(async (database) => {
      const app = await startApp(database, dataDir, { PLAY_COUNT_FOLD_SECONDS: '0' });
      try {
        // A kept database (ARTIST_BENCH_KEEP) is measured again as its own artist.
        const [kept] = (
          (await database.db.execute(sql`
            select u.id, u.email from podcasts p join users u on u.id = p.creator_id
            where p.id = ${uuidOf('bench-show-', sql`0`)}`)) as unknown as {
            rows: { id: string; email: string }[];
          }
        ).rows;
        let loadS = NaN;
        if (kept) {
          app.userId = kept.id;
          app.token = await signIn(app.url, kept.email, 'bench-pass');
          log(`  postgres: measuring the kept database's artist again`);
        } else {
          loadS = await load(database, app.userId, plays);
          log(
            `  postgres: ${plays.toLocaleString()} artist plays (+ as many others) in ${loadS} s`,
          );
        }
        const url = `${app.url}/api/artist/analytics`;
        const t = performance.now();
        const first = await fetch(url, { headers: { authorization: `Bearer ${app.token}` } });
        const body = (await first.json()) as { streams_30d: number; recent_streams: number };
        const firstMs = performance.now() - t;
        if (first.status !== 200) throw new Error(`analytics answered ${first.status}`);
        const [expected] = (
          (await database.db.execute(sql`
            select count(*)::int as n from stream_analytics sa
            left join songs s on s.id = sa.song_id
            left join podcast_episodes e on e.id = sa.podcast_episode_id
            left join podcasts p on p.id = e.podcast_id
            where coalesce(s.artist_id, p.creator_id) = ${app.userId}
              and sa.played_at >= date_trunc('day', now() at time zone 'UTC')
                                  at time zone 'UTC' - interval '29 days'`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows;
        if (body.streams_30d !== expected!.n)
          throw new Error(
            `dashboard says ${body.streams_30d} streams in 30 days, SQL ${expected!.n}`,
          );
        log(
          `  first request (counts 29 finished days) ${round(firstMs)} ms; ${body.streams_30d.toLocaleString()} streams in 30 days`,
        );
        await latencies(url, app.token, 10);
        const mine = await latencies(url, app.token, SAMPLES);
        const health = await latencies(`${app.url}/api/health`, app.token, SAMPLES);
        const a = { p50: percentile(mine, 50), p95: percentile(mine, 95) };
        const h = { p50: percentile(health, 50), p95: percentile(health, 95) };
        log(
          `  GET /api/artist/analytics p50 ${round(a.p50)} / p95 ${round(a.p95)} ms; /api/health p50 ${round(h.p50)} / p95 ${round(h.p95)} ms`,
        );
        const healthLoad = await cannon(`${app.url}/api/health`, app.token, 10);
        const analyticsLoad = await cannon(url, app.token, 10);
        log(
          `  autocannon (8 connections): analytics ${round(analyticsLoad.rps)} req/s p97.5 ${analyticsLoad.p97_5} ms; health ${round(healthLoad.rps)} req/s p97.5 ${healthLoad.p97_5} ms`,
        );
        const at = `${(plays / 1e6).toLocaleString()}M streams`;
        return [
          row(`postgres: load ${at} + as many others`, loadS, NaN, 'lower', { unit: 's' }),
          row(`postgres: first GET /api/artist/analytics (${at})`, firstMs, h.p95, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p95',
          }),
          row(`postgres: GET /api/artist/analytics p50 (${at})`, a.p50, h.p50, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p50',
          }),
          row(`postgres: GET /api/artist/analytics p95 (${at})`, a.p95, h.p95, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p95',
            target: { text: `p95 < ${TARGET_P95_MS} ms`, met: a.p95 < TARGET_P95_MS },
          }),
          row(
            `postgres: GET /api/artist/analytics, 8 connections`,
            analyticsLoad.rps,
            healthLoad.rps,
            'higher',
            { unit: 'req/s', baselineName: 'GET /api/health' },
          ),
        ];
      } finally {
        await app.app.close();
      }
    }, process.env.ARTIST_BENCH_KEEP);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await artistAnalyticsBench();
  console.table(rows);
}
