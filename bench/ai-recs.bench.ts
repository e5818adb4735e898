/**
 * Recommendations bench (docs/decisions/0032), PostgreSQL, through the real app where it says
 * HTTP:
 *
 * (a) Quality: a synthetic history with planted tastes — a third of the listeners play mostly
 *     one genre, a third mostly one circle of ten artists (across genres), the rest the
 *     popular songs — every listener's last 5 plays held out (deleted before the totals and
 *     the co-listening table are built). Hit rate at 10 (a held-out song among the top 10) of
 *     the recommender beside popularity (the most played songs the listener has not just
 *     played), and their ratio; target ≥ 2×.
 * (b) GET /api/recommendations p95 over HTTP for a listener with 10,000 plays among
 *     10,000,000 listening records (20,000 listeners, 50,000 songs by 2,000 artists, the same
 *     planted tastes), beside GET /api/health in the same run; target < 50 ms. Rows come from
 *     INSERT … SELECT generate_series with the table's indexes dropped for the load (as the
 *     listening bench does); the load, the totals' rebuild and the co-listening job are timed.
 * (c) POST /api/recommendations/playlist ('Generate AI Playlist', 20 songs) p95 on (b)'s data,
 *     beside GET /api/health; target < 300 ms.
 *
 * Run alone: npx tsx bench/ai-recs.bench.ts   (AI_RECS_PLAYS: (b)'s size, default 10,000,000;
 * 1,000,000 for a quick run. AI_RECS_SKIP=quality,latency). At 10M plays the section takes
 * ~20 minutes on two busy cores (the load ~8, the totals' rebuild ~6): through the runner,
 * `BENCH_TIMEOUT_MIN=30 npm run bench -- ai-recs`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { rankCandidates } from '../src/core/recommendations/recommendation-score.ts';
import { recommendationLimits } from '../src/core/validation/recommendation.rules.ts';
import type { Database } from '../src/server/db/client.ts';
import { queryRows } from '../src/server/db/sql-results.ts';
import {
  candidatesQuery,
  createRecommendationsRepository,
} from '../src/server/modules/recommendations/recommendations.repository.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { percentile, postgresReachable, startApp, withBenchPostgres } from './catalogue.bench.ts';

const round = (n: number) => Math.round(n * 100) / 100;
const seconds = (t: number) => round((performance.now() - t) / 1000);
const GENRES = 20;
const CIRCLE = 10;
const HELD_OUT = 5;
const SAMPLES = 60;

type SQL = ReturnType<typeof sql>;
/** A version-4-shaped uuid from md5, so rows can name each other without a lookup. */
const uuidOf = (prefix: string, k: SQL) => {
  const h = sql`md5(${prefix}::text || ${k})`;
  return sql`(left(${h}, 12) || '4' || substr(${h}, 14, 3) || '8' || substr(${h}, 18, 15))::uuid`;
};
/** A deterministic pseudo-random fraction in [0, 1) per play and salt. */
const u = (salt: number) => `((abs(hashint8extended(i, ${salt})) % 1000000) / 1000000.0)`;

type World = { songs: number; artists: number; listeners: number };

/**
 * Song k is by artist k % artists; artist a plays genre a % 20 and belongs to circle
 * a / 10 (so a circle spans ten genres and a genre a hundred circles at 2,000 artists).
 */
async function insertCatalogue(database: Database, w: World) {
  await database.db.execute(sql`
    insert into users (id, email, password_hash)
    select ${uuidOf('recs-artist-', sql.raw('k'))}, 'recs-artist-' || k || '@bench.local', 'x'
    from generate_series(0, ${w.artists - 1}) k`);
  await database.db.execute(sql`
    insert into users (id, email, password_hash)
    select ${uuidOf('recs-listener-', sql.raw('k'))}, 'recs-listener-' || k || '@bench.local', 'x'
    from generate_series(0, ${w.listeners - 1}) k`);
  await database.db.execute(sql`
    insert into songs (id, artist_id, title, artist, genre, file_url, duration_ms, created_at)
    select ${uuidOf('recs-song-', sql.raw('k'))},
      ${uuidOf('recs-artist-', sql.raw(`(k % ${w.artists})`))},
      'Song ' || k, 'Artist ' || (k % ${w.artists}), 'Genre ' || ((k % ${w.artists}) % ${GENRES}),
      '/media/music/bench.wav', 180000, now() - k * interval '1 minute'
    from generate_series(0, ${w.songs - 1}) k`);
}

/**
 * Plays `from`..`to` of `total`, one every ~3 s up to now. Listener l's taste is l % 3:
 * 0 genre (l / 3) % 20, 1 circle (l / 3) % circles, 2 none. 80 % of a tasteful listener's
 * plays follow the taste (skewed to a few favourites), the rest are popularity-skewed picks
 * from the whole catalogue. Every `everyNth` play is the measured listener's (a genre
 * listener of genre 0) when `measured` is given.
 */
async function insertPlays(
  database: Database,
  w: World,
  range: { from: number; to: number; total: number },
  measured?: { id: string; everyNth: number },
) {
  const circles = Math.floor(w.artists / CIRCLE);
  const perArtist = Math.floor(w.songs / w.artists);
  const listener = measured
    ? `case when i % ${measured.everyNth} = 0 then -1 else abs(hashint8extended(i, 1)) % ${w.listeners} end`
    : `abs(hashint8extended(i, 1)) % ${w.listeners}`;
  // A song of artist `a`: one of its perArtist songs, the first ones more often.
  const songOf = (a: string) =>
    `(${a}) + ${w.artists} * floor(${perArtist} * power(${u(5)}, 2))::int`;
  const genreArtist = (g: string) =>
    `(${g}) + ${GENRES} * floor(${w.artists / GENRES} * power(${u(3)}, 2))::int`;
  const circleArtist = (c: string) => `(${c}) * ${CIRCLE} + floor(${CIRCLE} * ${u(3)})::int`;
  const song = `case
      when l.k = -1 and ${u(2)} < 0.8 then ${songOf(genreArtist('0'))}
      when l.k >= 0 and l.k % 3 = 0 and ${u(2)} < 0.8 then ${songOf(genreArtist(`(l.k / 3) % ${GENRES}`))}
      when l.k >= 0 and l.k % 3 = 1 and ${u(2)} < 0.8 then ${songOf(circleArtist(`(l.k / 3) % ${circles}`))}
      else floor(${w.songs} * power(${u(4)}, 3))::int end`;
  await database.db.transaction(async (tx) => {
    // Consistent by construction: no per-row trigger or foreign key work during the load.
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed)
      select
        case when l.k = -1 then ${measured?.id ?? null}::uuid
          else ${uuidOf('recs-listener-', sql.raw('l.k'))} end,
        ${uuidOf('recs-song-', sql.raw(`(${song})`))},
        now() - ((${range.total}::bigint - i) * interval '3 seconds'),
        90000, true
      from generate_series(${range.from}::bigint, ${range.to}::bigint) as i
      cross join lateral (select ${sql.raw(listener)} as k) l`);
  });
}

/** What the app's triggers and folds would have made: totals, play counts; then neighbours. */
async function deriveTables(database: Database, log: Log) {
  const t = performance.now();
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`select listening_totals_rebuild()`);
    await tx.execute(sql`
      update songs s set play_count = c.n
      from (select song_id, count(*) as n from stream_analytics group by song_id) c
      where s.id = c.song_id`);
  });
  for (const table of ['listener_songs', 'listener_genres', 'listener_artists', 'songs'])
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
  const totalsS = seconds(t);
  const n = performance.now();
  const neighbours = await createRecommendationsRepository(database.db).refreshNeighbours();
  await database.db.execute(sql`vacuum analyze song_neighbours`);
  const neighboursS = seconds(n);
  log(
    `  totals and play counts in ${totalsS} s; ${neighbours.toLocaleString()} song neighbours in ${neighboursS} s`,
  );
  return { totalsS, neighboursS, neighbours };
}

// ---------------------------------------------------------------------------------------
// (a) Quality

async function qualityBench(log: Log): Promise<BenchRow[]> {
  return withBenchPostgres(async (database) => {
    const w: World = { songs: 10_000, artists: 1_000, listeners: 3_000 };
    const plays = 300_000;
    const t = performance.now();
    await insertCatalogue(database, w);
    await insertPlays(database, w, { from: 1, to: plays, total: plays });
    await database.db.execute(sql`analyze stream_analytics`);
    // Each listener's last plays, held out: gone before anything learns from them.
    const held = await queryRows<{ user_id: string; songs: string[] }>(
      database.db,
      sql`with ranked as (
            select id, user_id, song_id,
              row_number() over (partition by user_id order by played_at desc) as rn
            from stream_analytics),
          removed as (
            delete from stream_analytics a using ranked r
            where a.id = r.id and r.rn <= ${HELD_OUT}
            returning r.user_id, r.song_id)
          select user_id, array_agg(distinct song_id::text) as songs from removed group by user_id`,
    );
    log(`  quality: ${plays.toLocaleString()} plays loaded in ${seconds(t)} s`);
    await deriveTables(database, log);
    const repository = createRecommendationsRepository(database.db);
    // Listeners in turn, every taste: the first 600 in id order of the hashed ids.
    const sample = held.slice(0, 600);
    const now = new Date();
    let recHits = 0;
    let popHits = 0;
    const byTaste = new Map<string, { n: number; rec: number; pop: number }>();
    const tasteOf = await queryRows<{ id: string; k: number }>(
      database.db,
      sql`select ${uuidOf('recs-listener-', sql.raw('k'))}::text as id, k
          from generate_series(0, ${w.listeners - 1}) k`,
    );
    const taste = new Map(tasteOf.map((r) => [r.id, ['genre', 'circle', 'none'][r.k % 3]!]));
    for (const h of sample) {
      const { personal, mainstream, candidates } = await repository.candidates(h.user_id, {
        genre: null,
        now,
      });
      const recs = rankCandidates(candidates, {
        limit: 10,
        personal,
        perArtist: recommendationLimits.perArtist,
        mainstream,
      });
      // Popularity: the same candidates (just-played excluded) in the catalogue's order.
      const pop = rankCandidates(candidates, { limit: 10, personal: false, perArtist: 10 });
      const wanted = new Set(h.songs);
      const rec = recs.some((id) => wanted.has(id)) ? 1 : 0;
      const p = pop.some((id) => wanted.has(id)) ? 1 : 0;
      recHits += rec;
      popHits += p;
      const key = taste.get(h.user_id) ?? '?';
      const entry = byTaste.get(key) ?? { n: 0, rec: 0, pop: 0 };
      byTaste.set(key, { n: entry.n + 1, rec: entry.rec + rec, pop: entry.pop + p });
    }
    const recRate = recHits / sample.length;
    const popRate = popHits / sample.length;
    log(
      `  quality: hit rate at 10 over ${sample.length} listeners: recommender ${round(recRate)}, popularity ${round(popRate)} (${[
        ...byTaste,
      ]
        .map(([k, v]) => `${k}: ${round(v.rec / v.n)} vs ${round(v.pop / v.n)}`)
        .join('; ')})`,
    );
    return [
      row('quality: hit rate at 10, recommender vs popularity', recRate, popRate, 'higher', {
        unit: 'hits/listener',
        baselineName: 'most played, just-played excluded',
        target: { text: 'ratio ≥ 2', met: recRate >= 2 * popRate },
      }),
    ];
  });
}

// ---------------------------------------------------------------------------------------
// (b), (c) Latency on 10,000,000 plays

async function timeRequests(
  url: string,
  token: string,
  n: number,
  method: 'GET' | 'POST' = 'GET',
): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200 && res.status !== 201) throw new Error(`${url} answered ${res.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

async function latencyBench(plays: number, log: Log): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-recs-'));
  try {
    return await withBenchPostgres(async (database) => {
      const app = await startApp(database, dataDir);
      try {
        const listener = await signUpListener(app.url);
        const w: World = { songs: 50_000, artists: 2_000, listeners: 20_000 };
        const everyNth = Math.max(1, Math.round(plays / 10_000));
        const t = performance.now();
        await insertCatalogue(database, w);
        const indexes = await queryRows<{ indexname: string; indexdef: string }>(
          database.db,
          sql`select indexname, indexdef from pg_indexes
              where tablename = 'stream_analytics' and indexname <> 'stream_analytics_pkey'`,
        );
        for (const ix of indexes)
          await database.db.execute(sql.raw(`drop index "${ix.indexname}"`));
        const step = 1_000_000;
        for (let from = 1; from <= plays; from += step) {
          const to = Math.min(plays, from + step - 1);
          await insertPlays(
            database,
            w,
            { from, to, total: plays },
            { id: listener.userId, everyNth },
          );
          log(`  latency: ${to.toLocaleString()} plays after ${seconds(t)} s`);
        }
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
          for (const ix of indexes) await tx.execute(sql.raw(ix.indexdef));
        });
        await database.db.execute(sql`vacuum analyze stream_analytics`);
        const loadS = seconds(t);
        const derived = await deriveTables(database, log);
        const [{ n: mine } = { n: 0 }] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from stream_analytics where user_id = ${listener.userId}`,
        );
        log(
          `  latency: ${plays.toLocaleString()} plays (${mine.toLocaleString()} the listener's) loaded in ${loadS} s`,
        );
        // A fresh token: the load can outlast the first one.
        const token = { forListener: await signIn(app.url, listener.email) };
        const listUrl = `${app.url}/api/recommendations?limit=10`;
        const mixUrl = `${app.url}/api/recommendations/playlist`;
        const healthUrl = `${app.url}/api/health`;
        await timeRequests(listUrl, token.forListener, 5);
        const list = await timeRequests(listUrl, token.forListener, SAMPLES);
        const health = await timeRequests(healthUrl, token.forListener, SAMPLES);
        await timeRequests(mixUrl, token.forListener, 3, 'POST');
        const mix = await timeRequests(mixUrl, token.forListener, 30, 'POST');
        const health2 = await timeRequests(healthUrl, token.forListener, 30);
        if (process.env.AI_RECS_EXPLAIN) {
          const plan = await queryRows<Record<string, string>>(
            database.db,
            sql`explain (analyze, buffers) ${candidatesQuery(listener.userId, null, new Date())}`,
          );
          log(plan.map((r) => Object.values(r)[0]).join('\n'));
        }
        const l = { p50: percentile(list, 50), p95: percentile(list, 95) };
        const h = { p50: percentile(health, 50), p95: percentile(health, 95) };
        const m = { p50: percentile(mix, 50), p95: percentile(mix, 95) };
        const h2 = percentile(health2, 95);
        log(
          `  latency: GET /api/recommendations p50 ${round(l.p50)} / p95 ${round(l.p95)} ms; POST /api/recommendations/playlist p50 ${round(m.p50)} / p95 ${round(m.p95)} ms; /api/health p50 ${round(h.p50)} / p95 ${round(h.p95)} ms`,
        );
        const at = `${(mine / 1000).toLocaleString()}k plays of ${(plays / 1e6).toLocaleString()}M`;
        return [
          row(
            `latency: load ${plays.toLocaleString()} plays (generate_series)`,
            loadS,
            NaN,
            'lower',
            {
              unit: 's',
              baselineName: 'indexes rebuilt, vacuum analyze',
            },
          ),
          row(
            'latency: co-listening table rebuilt (the job)',
            derived.neighboursS,
            derived.totalsS,
            'lower',
            {
              unit: 's',
              baselineName: 'listening_totals_rebuild() + play counts',
            },
          ),
          row(`latency: GET /api/recommendations p95 (${at})`, l.p95, h.p95, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p95',
            target: { text: 'p95 < 50 ms', met: l.p95 < 50 },
          }),
          row(`latency: POST /api/recommendations/playlist p95 (${at})`, m.p95, h2, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p95',
            target: { text: 'p95 < 300 ms', met: m.p95 < 300 },
          }),
        ];
      } finally {
        await app.app.close();
      }
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The measured listener: an account with a known address, so it can sign in again. */
async function signUpListener(url: string): Promise<{ email: string; userId: string }> {
  const email = `recs-bench-${crypto.randomUUID()}@example.com`;
  const res = await fetch(`${url}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-pass', display_name: 'Recs Bench' }),
  });
  if (res.status !== 201)
    throw new Error(`bench sign-up failed: ${res.status} ${await res.text()}`);
  return { email, userId: ((await res.json()) as { user: { id: string } }).user.id };
}

async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-pass' }),
  });
  if (res.status !== 200)
    throw new Error(`bench sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function aiRecsBench(
  options: { log?: Log; plays?: number; skip?: string[] } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const skip = new Set(options.skip ?? []);
  if (!(await postgresReachable())) return [unavailable('ai-recs', 'PostgreSQL not reachable')];
  const rows: BenchRow[] = [];
  if (!skip.has('quality')) rows.push(...(await qualityBench(log)));
  if (!skip.has('latency')) rows.push(...(await latencyBench(options.plays ?? 10_000_000, log)));
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await aiRecsBench({
    log: (line) => console.log(line),
    plays: process.env.AI_RECS_PLAYS ? Number(process.env.AI_RECS_PLAYS) : undefined,
    skip: process.env.AI_RECS_SKIP?.split(',').filter(Boolean),
  });
  console.table(rows);
  process.exit(0);
}
