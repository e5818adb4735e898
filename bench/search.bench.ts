/**
 * Search bench (ADR 0011): GET /api/search through the real app (buildApp + listen on
 * 127.0.0.1) with 16 concurrent keep-alive clients sending a mix of queries — title words
 * and phrases, artist names, genres, misspellings (the typo pass), and terms found nowhere
 * (typo pass, then the external catalogue, which points at a closed local port) — in all
 * three sorts, some within a genre. Each figure stands beside baselines measured in the same
 * run: GET /api/health through the same HTTP path and clients, and `SELECT 1` from 16
 * concurrent callers on the app's own pool.
 *
 * - PostgreSQL at 1,000,000 songs (20,000 artist accounts), a throwaway database from the
 *   app migrations, dropped afterwards.
 * - PGlite: songs are added 100,000 at a time up to 1,000,000 or until the load budget is
 *   spent; the size reached is reported with its load time, data directory size and RSS,
 *   and measured the same way (PGlite has one connection, so the 16 clients queue on it).
 *
 * Rows are bulk-loaded with INSERT … SELECT generate_series (the app's triggers run as for
 * any insert); the load generator runs in a worker thread so that it does not share the
 * server's event loop. All traffic is on 127.0.0.1.
 *
 * Run alone: npx tsx bench/search.bench.ts   (SEARCH_BENCH_PG_SONGS, SEARCH_BENCH_PGLITE_SONGS,
 * SEARCH_BENCH_SECONDS, SEARCH_BENCH_PGLITE_BUDGET_S, SEARCH_BENCH_SKIP=postgres,pglite,
 * SEARCH_BENCH_PG_KEEP=<database>: load it once, keep it for the next run; SEARCH_CONCURRENCY
 * is passed to the app)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { openPglite, type Database } from '../src/server/db/client.ts';
import { GENRE_FILTERS } from '../src/core/validation/song.rules.ts';
import { queryRows } from '../src/server/db/sql-results.ts';
import { row, unavailable, type BenchRow, type Log, CLOSED_LOOP_RUN } from './bench-kit.ts';
import {
  adminUrl,
  arr,
  GENRES,
  percentile,
  pick,
  postgresReachable,
  RARE_WORDS,
  startApp,
  withBenchPostgres,
  WORDS,
} from './catalogue.bench.ts';

const round = (n: number) => Math.round(n * 100) / 100;
const CLIENTS = 16;
const TARGET_P95_MS = 50;

// ---------------------------------------------------------------------------------------
// Data: artist accounts, then songs that name them

// prettier-ignore
const FIRST = [
  'Mara', 'Jonas', 'Aiko', 'Lena', 'Tomas', 'Priya', 'Omar', 'Sofia', 'Kwame', 'Elena',
  'Luca', 'Nadia', 'Felix', 'Ines', 'Hugo', 'Yara', 'Viktor', 'Chloe', 'Rafael', 'Mina',
  'Theo', 'Zara', 'Milan', 'Alma', 'Oskar', 'Leila', 'Dario', 'Freya', 'Nico', 'Selin',
  'Bruno', 'Hana', 'Emil', 'Ruth', 'Idris', 'Vera', 'Axel', 'Noor', 'Pablo', 'Greta',
  'Samir', 'Ada', 'Jules', 'Kira', 'Matteo', 'Lucia', 'Soren', 'Esme', 'Tariq', 'Wren',
];
// prettier-ignore
const LAST = [
  'Holloway', 'Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Ferreira', 'Kowalski', 'Haddad',
  'Novak', 'Brennan', 'Castillo', 'Ivanova', 'Mbeki', 'Rossi', 'Sato', 'Fischer', 'Dubois',
  'Jensen', 'Morales', 'Petrov', 'Quinn', 'Adeyemi', 'Bauer', 'Costa', 'Dalton', 'Eriksen',
  'Fontaine', 'Garcia', 'Horvat', 'Iqbal', 'Jovanovic', 'Keller', 'Larsen', 'Mendes',
  'Nakamura', 'Oliveira', 'Park', 'Reyes', 'Schmidt', 'Toivonen', 'Ueda', 'Vargas', 'Weber',
  'Xu', 'Yilmaz', 'Zhou', 'Achebe', 'Blackwood', 'Carver', 'Delacroix', 'Everett', 'Falk',
  'Grimaldi', 'Hart', 'Ishikawa', 'Kaur', 'Lowe', 'Marsh', 'Nilsson', 'Orr', 'Pike', 'Rowe',
  'Stone', 'Thorne', 'Vance', 'Wilde', 'Young', 'Abbott', 'Byrne', 'Crane', 'Drake', 'Frost',
  'Gale', 'Hale', 'Ivers', 'Knox', 'Lark', 'Moss', 'Nash', 'Owens',
];
const BANDS = ['', ' Trio', ' Quartet', ' Band', ' Collective'];
/** 50 × 80 × 5 distinct names. */
const ARTISTS = FIRST.length * LAST.length * BANDS.length;
const artistName = (k: number) =>
  `${FIRST[k % FIRST.length]} ${LAST[Math.floor(k / FIRST.length) % LAST.length]}${BANDS[Math.floor(k / (FIRST.length * LAST.length))]}`;
type SQL = ReturnType<typeof sql>;
/** A version-4-shaped uuid from md5 (the API checks artist_id is one). */
const artistUuid = (k: SQL) => {
  const h = sql`md5('bench-artist-' || ${k})`;
  return sql`(left(${h}, 12) || '4' || substr(${h}, 14, 3) || '8' || substr(${h}, 18, 15))::uuid`;
};

/** Artist accounts with profiles: the songs' BEFORE INSERT trigger copies their names. */
async function insertArtists(database: Database) {
  const k = sql.raw('k');
  await database.db.execute(sql`
    insert into users (id, email, password_hash)
    select ${artistUuid(k)}, 'bench-artist-' || k || '@bench.local', 'x'
    from generate_series(0, ${ARTISTS - 1}) k`);
  await database.db.execute(sql`
    insert into profiles (user_id, display_name)
    select ${artistUuid(k)},
      (${arr(FIRST)})[1 + k % ${FIRST.length}] || ' '
        || (${arr(LAST)})[1 + (k / ${FIRST.length}) % ${LAST.length}]
        || (${arr(BANDS)})[1 + k / ${FIRST.length * LAST.length}]
    from generate_series(0, ${ARTISTS - 1}) k`);
}

/**
 * Songs `from`..`to` (1-based), titles as catalogue.bench.ts makes them (2–3 of 40 common
 * words, every 4th with a made-up "(<word> Mix)", every 1000th a unique token), genres
 * uniform over 8, play counts skewed; each by one of the artists, skewed too (a few
 * artists have thousands of songs, most a few dozen).
 */
async function insertSongs(database: Database, from: number, to: number) {
  await database.db.execute(sql`
    insert into songs (artist_id, title, genre, play_count, created_at, file_url, duration_ms)
    select
      ${artistUuid(sql.raw(`floor(${ARTISTS} * power((abs(hashint8extended(i, 8)) % 1000000) / 1000000.0, 2))::int`))},
      (${arr(WORDS)})[1 + ${pick(1, 40)}] || ' ' || (${arr(WORDS)})[1 + ${pick(2, 40)}]
        || case when ${pick(3, 3)} = 0 then ' ' || (${arr(WORDS)})[1 + ${pick(4, 40)}] else '' end
        || case when i % 4 = 1 then ' (' || (${arr(RARE_WORDS)})[1 + ${pick(5, RARE_WORDS.length)}] || ' Mix)' else '' end
        || case when i % 1000 = 500 then ' take ' || left(md5(i::text), 8) else '' end,
      (${arr(GENRES)})[1 + ${pick(6, 8)}],
      floor(100000 * power((abs(hashint8extended(i, 7)) % 1000000) / 1000000.0, 4))::bigint,
      now() - (i * interval '1 second'),
      '/media/music/bench.wav',
      120000 + (i % 180000)
    from generate_series(${from}::bigint, ${to}::bigint) as i`);
}

async function analyze(database: Database) {
  for (const table of ['songs', 'song_artists', 'song_genres', 'search_terms'])
    await database.db.execute(sql.raw(`analyze ${table}`));
}

/**
 * The state a server's autovacuum keeps: this machine's PostgreSQL runs with autovacuum off,
 * and the bulk load updated each artist's and word's counter row hundreds of times in one
 * transaction (song_artists: 681 pages for 20,000 rows, 60,000 dead; 171 pages compacted).
 * Uploads one at a time leave no such bloat. Songs are vacuumed for their visibility map
 * (index-only scans), as autovacuum would after the load.
 */
async function vacuum(database: Database) {
  for (const table of ['song_artists', 'song_genres', 'search_terms'])
    await database.db.execute(sql.raw(`vacuum (full, analyze) ${table}`));
  await database.db.execute(sql.raw('vacuum (analyze) songs'));
}

// ---------------------------------------------------------------------------------------
// The query mix

type Kind = 'title' | 'artist' | 'genre' | 'typo' | 'none';
type Request = { path: string; kind: Kind };

/** A small deterministic generator, so every run sends the same requests. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One letter dropped or two neighbours swapped, inside the word (what fast typing does). */
function misspell(word: string, r: () => number): string {
  const at = 1 + Math.floor(r() * (word.length - 2));
  return r() < 0.5
    ? word.slice(0, at) + word.slice(at + 1)
    : word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

/**
 * 3,000 distinct requests: 30 % title words and phrases (common, made-up "Mix" words),
 * 25 % artist names (full, last or first name), 10 % genres, 20 % misspellings of those,
 * 15 % terms found nowhere. 60 % relevance, 20 % popular, 20 % recent; a fifth within a
 * genre tile.
 */
function requestMix(count = 3000, seed = 2026): Request[] {
  const r = random(seed);
  const one = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const lower = (s: string) => s.toLowerCase();
  const seen = new Set<string>();
  const out: Request[] = [];
  while (out.length < count) {
    const x = r();
    let kind: Kind;
    let q: string;
    if (x < 0.15) [kind, q] = ['title', lower(one(WORDS))];
    else if (x < 0.22) [kind, q] = ['title', lower(`${one(WORDS)} ${one(WORDS)}`)];
    else if (x < 0.3) [kind, q] = ['title', lower(one(RARE_WORDS))];
    else if (x < 0.4) [kind, q] = ['artist', lower(artistName(Math.floor(r() * ARTISTS)))];
    else if (x < 0.48) [kind, q] = ['artist', lower(one(LAST))];
    else if (x < 0.55) [kind, q] = ['artist', lower(one(FIRST))];
    else if (x < 0.65) [kind, q] = ['genre', lower(one(GENRES))];
    else if (x < 0.85) {
      kind = 'typo';
      const source = one([WORDS, LAST, FIRST, RARE_WORDS].filter((l) => l !== FIRST || r() < 0.3));
      const words = r() < 0.3 ? [one(FIRST), one(LAST)] : [one(source)];
      const wrong = Math.floor(r() * words.length);
      q = words
        .map((w, i) => (i === wrong && w.length > 4 ? misspell(lower(w), r) : lower(w)))
        .join(' ');
    } else {
      kind = 'none';
      q = Array.from({ length: 5 + Math.floor(r() * 4) }, () => one([...'qxzjvwkyh'])).join('');
    }
    const y = r();
    const sort = y < 0.6 ? 'relevance' : y < 0.8 ? 'popular' : 'recent';
    const params = new URLSearchParams({ q, sort });
    if (r() < 0.2) params.set('genre', one(GENRE_FILTERS.slice(1)));
    const p = `/api/search?${params}`;
    if (seen.has(p)) continue;
    seen.add(p);
    out.push({ path: p, kind });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Load: 16 keep-alive clients in a worker thread

type LoadResult = {
  latencies: number[];
  /** CPU milliseconds per timed request: this process (app and clients) and PostgreSQL. */
  cpuMs: { node: number; postgres: number } | null;
  /** Requests whose path was sent less than the cache TTL before (answerable from it). */
  repeats: number;
  kinds: Record<string, number[]>;
  statuses: Record<string, number>;
  errors: number;
  seconds: number;
};

const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, token, requests, order, ttlMs, clients, warmupMs, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const headers = token ? { authorization: 'Bearer ' + token } : {};
const get = (path) => new Promise((resolve, reject) => {
  const started = performance.now();
  const req = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
    res.resume();
    res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode }));
  });
  req.on('error', reject);
  req.end();
});
let next = 0;
const result = { latencies: [], kinds: {}, statuses: {}, errors: 0, seconds: 0, repeats: 0 };
// When each path was last sent: a request within ttlMs of it could be answered by the cache.
const lastSent = new Map();
async function client(until, record) {
  while (performance.now() < until) {
    const i = next++;
    const r = order ? requests[order[i % order.length]] : requests[i % requests.length];
    const now = performance.now();
    const last = lastSent.get(r.path);
    lastSent.set(r.path, now);
    if (record && last !== undefined && now - last < ttlMs) result.repeats++;
    try {
      const { ms, status } = await get(r.path);
      if (!record) continue;
      result.latencies.push(ms);
      (result.kinds[r.kind] ??= []).push(ms);
      result.statuses[status] = (result.statuses[status] ?? 0) + 1;
    } catch {
      if (record) result.errors++;
    }
  }
}
${CLOSED_LOOP_RUN}
`;

/**
 * CPU seconds used so far by this process (the app and the clients' worker) and by every
 * process named postgres on this machine (the bench's server is local): per request, a figure
 * far steadier than throughput on a machine shared with other work. Null where /proc is not.
 */
function cpuSeconds(): { node: number; postgres: number } | null {
  const tick = 100; // USER_HZ on Linux
  let postgres = 0;
  try {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      postgres += (Number(fields[11]) + Number(fields[12])) / tick;
    }
  } catch {
    return null;
  }
  const own = process.cpuUsage();
  return { node: (own.user + own.system) / 1e6, postgres };
}

function load(
  port: number,
  token: string | null,
  requests: Request[],
  seconds: number,
  warmupSeconds: number,
  stream: { order?: number[]; ttlMs?: number } = {},
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, {
      eval: true,
      workerData: {
        port,
        token,
        requests,
        order: stream.order ?? null,
        ttlMs: stream.ttlMs ?? 0,
        clients: CLIENTS,
        warmupMs: warmupSeconds * 1000,
        durationMs: seconds * 1000,
      },
    });
    let before: ReturnType<typeof cpuSeconds> = null;
    worker.on('message', (m: LoadResult | { timed: true }) => {
      if ('timed' in m) {
        before = cpuSeconds();
        return;
      }
      const after = cpuSeconds();
      const n = m.latencies.length;
      m.cpuMs =
        before && after && n > 0
          ? {
              node: (1000 * (after.node - before.node)) / n,
              postgres: (1000 * (after.postgres - before.postgres)) / n,
            }
          : null;
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

/** `SELECT 1` from 16 concurrent callers on the app's pool, for `seconds`. */
async function selectOne(database: Database, seconds: number) {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await database.db.execute(sql`select 1`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

const stats = (xs: number[]) => ({
  p50: percentile(xs, 50),
  p95: percentile(xs, 95),
  p99: percentile(xs, 99),
});

/** Zipf's law over `n` ranks (exponent 1, as query logs roughly follow): `count` draws. */
function zipfOrder(n: number, count: number, seed: number): number[] {
  const r = random(seed);
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k++) cdf.push((sum += 1 / k));
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const x = r() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    out.push(lo);
  }
  return out;
}

/** The pool's order shuffled (seeded), so that popularity ranks are not grouped by kind. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const r = random(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const CACHE_SECONDS = 10;

/**
 * Two streams through the same app code, each beside the same baselines:
 * - cache off (SEARCH_CACHE_SECONDS=0), the 3,000 distinct requests sent in turn: every
 *   search reaches the database — the worst case, and the figure of earlier runs;
 * - the answer cache on (its default, 10 s), requests drawn by Zipf's law (exponent 1) from
 *   20,000 distinct ones — the shape of real query logs, where a few searches are typed by
 *   many people and most by one. The share of requests repeating a path sent within the TTL
 *   is reported beside it.
 */
async function measureHttp(
  label: string,
  database: Database,
  dataDir: string,
  songs: number,
  seconds: number,
  log: Log,
): Promise<BenchRow[]> {
  const at = `${songs.toLocaleString()} songs, ${CLIENTS} clients`;
  const rows: BenchRow[] = [];
  // SEARCH_CONCURRENCY, when set, reaches the app (0: every search let in at once).
  const admission: Record<string, string> = process.env.SEARCH_CONCURRENCY
    ? { SEARCH_CONCURRENCY: process.env.SEARCH_CONCURRENCY }
    : {};
  const streams = [
    {
      name: 'cache off',
      env: { SEARCH_CACHE_SECONDS: '0', ...admission },
      requests: requestMix(),
    },
    {
      name: `cache ${CACHE_SECONDS} s, Zipf stream`,
      env: { SEARCH_CACHE_SECONDS: String(CACHE_SECONDS), ...admission },
      requests: shuffled(requestMix(20_000, 7), 11),
      order: zipfOrder(20_000, 400_000, 13),
    },
  ];
  for (const stream of streams) {
    const { app, url, token } = await startApp(database, dataDir, stream.env);
    const port = Number(new URL(url).port);
    try {
      // Every kind of request answers 200 before anything is timed.
      for (const r of stream.requests.filter((_, i) => i % 150 === 0)) {
        const res = await fetch(url + r.path, { headers: { authorization: `Bearer ${token}` } });
        if (res.status !== 200) throw new Error(`${r.path} answered ${res.status}`);
        await res.arrayBuffer();
      }
      const health = await load(port, null, [{ path: '/api/health', kind: 'none' }], seconds, 2);
      const one = stats(await selectOne(database, seconds));
      const search = await load(port, token, stream.requests, seconds, Math.min(10, seconds), {
        order: stream.order,
        ttlMs: CACHE_SECONDS * 1000,
      });
      const non200 = Object.entries(search.statuses).filter(([st]) => st !== '200');
      if (non200.length > 0 || search.errors > 0)
        throw new Error(
          `search answered ${JSON.stringify(search.statuses)}, ${search.errors} errors`,
        );
      const h = stats(health.latencies);
      const s = stats(search.latencies);
      const rate = search.latencies.length / search.seconds;
      const healthRate = health.latencies.length / health.seconds;
      const repeats = round((100 * search.repeats) / search.latencies.length);
      const name = `${label}, ${stream.name}`;
      log(
        `  ${name}: search p50 ${round(s.p50)} / p95 ${round(s.p95)} / p99 ${round(s.p99)} ms, ${round(rate)} req/s ` +
          `(${repeats} % repeat a path sent < ${CACHE_SECONDS} s before); ` +
          `/api/health p50 ${round(h.p50)} / p95 ${round(h.p95)} ms, ${round(healthRate)} req/s; ` +
          `SELECT 1 (${CLIENTS} callers) p50 ${round(one.p50)} / p95 ${round(one.p95)} ms` +
          (search.cpuMs
            ? `; CPU per search: node (app and clients) ${round(search.cpuMs.node)} ms, PostgreSQL ${round(search.cpuMs.postgres)} ms`
            : ''),
      );
      for (const [kind, xs] of Object.entries(search.kinds)) {
        const k = stats(xs);
        log(
          `    ${name}: ${kind.padEnd(6)} n=${xs.length} p50 ${round(k.p50)} / p95 ${round(k.p95)} ms`,
        );
      }
      rows.push(
        row(`${name}: GET /api/search p50 (${at})`, s.p50, h.p50, 'lower', {
          unit: 'ms',
          baselineName: 'GET /api/health p50',
        }),
        row(`${name}: GET /api/search p95 (${at})`, s.p95, h.p95, 'lower', {
          unit: 'ms',
          baselineName: 'GET /api/health p95',
          target: { text: `p95 < ${TARGET_P95_MS} ms`, met: s.p95 < TARGET_P95_MS },
        }),
        row(`${name}: GET /api/search p95 vs the database (${at})`, s.p95, one.p95, 'lower', {
          unit: 'ms',
          baselineName: `SELECT 1 p95, ${CLIENTS} callers`,
        }),
        row(`${name}: GET /api/search throughput (${at})`, rate, healthRate, 'higher', {
          unit: 'req/s',
          baselineName: 'GET /api/health',
        }),
      );
    } finally {
      await app.close();
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------
// Engines

const seconds = (t: number) => round((performance.now() - t) / 1000);

async function postgresBench(
  songs: number,
  duration: number,
  log: Log,
  keep?: string,
): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-search-pg-'));
  try {
    return await withBenchPostgres(async (database) => {
      const t = performance.now();
      const [loaded] = await queryRows<{ n: string }>(
        database.db,
        sql`select count(*) as n from songs`,
      );
      if (Number(loaded!.n) === songs) {
        log(`  postgres: ${keep} already holds ${songs.toLocaleString()} songs; not loaded again`);
        // Each run signs up a bench user from 127.0.0.1; earlier runs' sign-ups count against
        // the per-address limit.
        await database.db.execute(sql`delete from rate_limits`);
      } else {
        if (Number(loaded!.n) !== 0)
          throw new Error(`${keep ?? 'the bench database'} holds ${loaded!.n} songs, not 0`);
        await insertArtists(database);
        for (let from = 1; from <= songs; from += 250_000)
          await insertSongs(database, from, Math.min(songs, from + 249_999));
        await vacuum(database);
        log(
          `  postgres: ${ARTISTS.toLocaleString()} artists, ${songs.toLocaleString()} songs in ${seconds(t)} s`,
        );
      }
      return await measureHttp('postgres', database, dataDir, songs, duration, log);
    }, keep);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return total;
}

/** Adds 100,000 songs at a time while the budget lasts; measures at the size reached. */
async function pgliteBench(
  target: number,
  budgetSeconds: number,
  duration: number,
  log: Log,
): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-search-pglite-'));
  const database = await openPglite(path.join(dataDir, 'db'));
  try {
    await database.migrate();
    const t = performance.now();
    await insertArtists(database);
    let songs = 0;
    const step = 100_000;
    while (songs < target && seconds(t) < budgetSeconds) {
      const to = Math.min(target, songs + step);
      await insertSongs(database, songs + 1, to);
      songs = to;
      log(
        `  pglite: ${songs.toLocaleString()} songs after ${seconds(t)} s, RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`,
      );
    }
    await analyze(database);
    const loadSeconds = seconds(t);
    const mb = dirBytes(path.join(dataDir, 'db')) / 2 ** 20;
    log(
      `  pglite: ${songs.toLocaleString()} songs (target ${target.toLocaleString()}, budget ${budgetSeconds} s) in ${loadSeconds} s; data directory ${Math.round(mb)} MB`,
    );
    const rows = await measureHttp('pglite', database, dataDir, songs, duration, log);
    log(`  pglite: RSS after the load ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
    return [
      row(`pglite: songs loaded (of ${target.toLocaleString()})`, songs, target, 'higher', {
        unit: 'songs',
        baselineName: `target, ${budgetSeconds} s budget; took ${loadSeconds} s, ${Math.round(mb)} MB`,
      }),
      ...rows,
    ];
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export type SearchBenchOptions = {
  log?: Log;
  postgresSongs?: number;
  pgliteSongs?: number;
  pgliteBudgetSeconds?: number;
  seconds?: number;
  skip?: Array<'postgres' | 'pglite'>;
  /** The PostgreSQL database to load once and keep (SEARCH_BENCH_PG_KEEP), for repeated runs. */
  keepPostgres?: string;
};

export async function searchBench(options: SearchBenchOptions = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const skip = new Set(options.skip ?? []);
  const duration = options.seconds ?? 20;
  const rows: BenchRow[] = [];
  if (!skip.has('postgres')) {
    if (await postgresReachable()) {
      rows.push(
        ...(await postgresBench(
          options.postgresSongs ?? 1_000_000,
          duration,
          log,
          options.keepPostgres,
        )),
      );
    } else {
      log(`postgres: not reachable at ${adminUrl}; skipped`);
      rows.push(unavailable('postgres: GET /api/search', 'PostgreSQL not reachable'));
    }
  }
  if (!skip.has('pglite')) {
    rows.push(
      ...(await pgliteBench(
        options.pgliteSongs ?? 1_000_000,
        options.pgliteBudgetSeconds ?? 420,
        duration,
        log,
      )),
    );
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const rows = await searchBench({
    log: (line) => console.log(line),
    postgresSongs: num('SEARCH_BENCH_PG_SONGS'),
    pgliteSongs: num('SEARCH_BENCH_PGLITE_SONGS'),
    pgliteBudgetSeconds: num('SEARCH_BENCH_PGLITE_BUDGET_S'),
    seconds: num('SEARCH_BENCH_SECONDS'),
    keepPostgres: process.env.SEARCH_BENCH_PG_KEEP || undefined,
    skip: (process.env.SEARCH_BENCH_SKIP?.split(',').filter(Boolean) ??
      []) as SearchBenchOptions['skip'],
  });
  console.table(rows);
  process.exit(0);
}
