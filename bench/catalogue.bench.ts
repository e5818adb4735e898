/**
 * Catalogue bench: search latency over a large songs table, home requests/s, and the
 * server's memory while a 100 MB song is uploaded. Each figure is printed beside a baseline
 * measured in the same run on the same machine:
 *   - search p50/p95 (repository → database) vs a `SELECT 1` round trip on the same pool;
 *   - GET /api/songs/home req/s vs GET /api/health req/s on the same listening app;
 *   - upload peak RSS above idle vs the 80 MB target (the file itself is 100 MB).
 *
 * PostgreSQL: a throwaway database `canto_bench_<rand>` built from the app migrations and
 * dropped afterwards (BENCH_DATABASE_URL or TEST_DATABASE_URL names the server; default
 * postgres://postgres@127.0.0.1:5432/test). PGlite: a temp data directory.
 *
 * Run alone: npx tsx bench/catalogue.bench.ts   (CATALOGUE_BENCH_PG_SONGS=… to resize)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp, type App } from '../src/server/app.ts';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import {
  createSearchRepository,
  type SongSort,
} from '../src/server/modules/search/search.repository.ts';
import { parseEnv } from '../src/server/env.ts';
import { lazyWav, row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { GENRES as SPEC_GENRES } from '../src/core/validation/song.rules.ts';

const round = (n: number) => Math.round(n * 100) / 100;
const MB = 1024 * 1024;
export const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

export function percentile(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

// ---------------------------------------------------------------------------------------
// Data

export const WORDS = [
  'Midnight',
  'Golden',
  'Electric',
  'Summer',
  'Broken',
  'Silver',
  'Neon',
  'Wild',
  'Velvet',
  'Crystal',
  'Ocean',
  'Fire',
  'Shadow',
  'Echo',
  'Paper',
  'Northern',
  'Lonely',
  'Sweet',
  'Rising',
  'Falling',
  'Heart',
  'River',
  'Dream',
  'City',
  'Lights',
  'Rain',
  'Highway',
  'Moon',
  'Stars',
  'Road',
  'Love',
  'Thunder',
  'Garden',
  'Mirror',
  'Storm',
  'Sky',
  'Wave',
  'Ghost',
  'Diamond',
  'Sunset',
];
// The spec's genres, as the product has them (the search bench imports them from here too).
export const GENRES: string[] = [...SPEC_GENRES];
/** 280 made-up words ('Balo', 'Beno', …): a "medium" term, in ~0.09 % of songs each. */
export const RARE_WORDS = [...'bdfgklmnprstvz'].flatMap((c) =>
  [...'aeiou'].flatMap((v) => ['lo', 'no', 'ro', 'so'].map((e) => `${c.toUpperCase()}${v}${e}`)),
);
export const arr = (xs: string[]) =>
  sql.raw(`array[${xs.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`);
/** An independent pseudo-random 0..n-1 per song and salt (PostgreSQL's own int8 hash). */
export const pick = (salt: number, n: number) =>
  sql.raw(`(abs(hashint8extended(i, ${salt})) % ${n})`);

/**
 * Inserts songs `from`..`to` (1-based) in one INSERT … SELECT generate_series. Titles are 2–3
 * of 40 common words (each word in ~5.7 % of titles: a broad term); every 4th song adds a
 * "(<rare word> Mix)" (medium term); every 1000th adds a unique 8-hex "take" (rare term,
 * `rareToken`). Genres are uniform over 8 (12.5 % each), play counts skewed (most songs
 * are rarely played), dates one second apart.
 */
async function bulkInsert(database: Database, from: number, to: number) {
  await database.db.execute(sql`
    insert into songs (title, genre, artist, play_count, created_at, file_url, duration_ms)
    select
      (${arr(WORDS)})[1 + ${pick(1, 40)}] || ' ' || (${arr(WORDS)})[1 + ${pick(2, 40)}]
        || case when ${pick(3, 3)} = 0 then ' ' || (${arr(WORDS)})[1 + ${pick(4, 40)}] else '' end
        || case when i % 4 = 1 then ' (' || (${arr(RARE_WORDS)})[1 + ${pick(5, RARE_WORDS.length)}] || ' Mix)' else '' end
        || case when i % 1000 = 500 then ' take ' || left(md5(i::text), 8) else '' end,
      (${arr(GENRES)})[1 + ${pick(6, 8)}],
      'Bench Artist ' || (i % 5000),
      floor(100000 * power((abs(hashint8extended(i, 7)) % 1000000) / 1000000.0, 4))::bigint,
      now() - (i * interval '1 second'),
      '/media/music/bench.wav',
      120000 + (i % 180000)
    from generate_series(${from}::bigint, ${to}::bigint) as i`);
  await database.db.execute(sql`analyze songs`);
}

/** The unique term of song `i` (i % 1000 = 500): one match. */
const rareToken = (i: number) =>
  crypto.createHash('md5').update(String(i)).digest('hex').slice(0, 8);

async function countSongs(database: Database) {
  const r = (await database.db.execute(sql`select count(*)::int as n from songs`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return r.rows[0]!.n;
}

// ---------------------------------------------------------------------------------------
// Search latency

type SearchCase = { term: string; q: string; sort: SongSort; genre: string | null };

/**
 * Every term class × sort × with and without a genre filter. Classes: a unique token (1
 * match), a term found nowhere (external fallback), a made-up word (~0.09 %), a title word
 * (~5.7 %), a genre (12.5 %, every match ties on similarity) and a 2-letter prefix (no
 * trigram: no index can serve it).
 */
function searchCases(): SearchCase[] {
  const terms: Array<[string, string]> = [
    ['rare', rareToken(500)],
    ['none', 'zzqx'],
    ['medium', 'keso'],
    ['word', 'midnight'],
    ['genre', 'rock'],
    ['2-letter', 'mi'],
  ];
  return terms.flatMap(([term, q]) =>
    (['relevance', 'popular', 'recent'] as const).flatMap((sort) =>
      [null, 'jazz'].map((genre) => ({ term, q, sort, genre })),
    ),
  );
}

async function searchLatency(database: Database, iterations: number) {
  const repo = createSearchRepository(database.db);
  const cases = searchCases();
  const one = async () => database.db.execute(sql`select 1`);
  const run = (c: SearchCase) =>
    repo.search({ query: c.q, genre: c.genre, sort: c.sort, limit: 20 });
  for (let i = 0; i < 2; i++) {
    await one();
    for (const c of cases) await run(c);
  }
  const search: number[] = [];
  const base: number[] = [];
  const byTerm = new Map<string, number[]>();
  const byCase = new Map<string, number[]>();
  for (let i = 0; i < iterations; i++) {
    const c = cases[i % cases.length]!;
    let t = performance.now();
    await run(c);
    const ms = performance.now() - t;
    search.push(ms);
    byTerm.set(c.term, [...(byTerm.get(c.term) ?? []), ms]);
    const label = `${c.term} '${c.q}' ${c.sort}${c.genre ? ` genre=${c.genre}` : ''}`;
    byCase.set(label, [...(byCase.get(label) ?? []), ms]);
    t = performance.now();
    await one();
    base.push(performance.now() - t);
  }
  const summary = (m: Map<string, number[]>) =>
    [...m].map(
      ([label, ms]) =>
        `${label} p50 ${round(percentile(ms, 50))} / p95 ${round(percentile(ms, 95))} ms`,
    );
  return {
    byTerm: summary(byTerm),
    slowest: [...byCase]
      .map(([label, ms]) => ({ label, p50: percentile(ms, 50) }))
      .sort((a, b) => b.p50 - a.p50)
      .slice(0, 6)
      .map((x) => `${x.label} ${round(x.p50)} ms`),
    p50: percentile(search, 50),
    p95: percentile(search, 95),
    baseP50: percentile(base, 50),
    baseP95: percentile(base, 95),
  };
}

// ---------------------------------------------------------------------------------------
// A real listening app

export async function startApp(
  database: Database,
  dataDir: string,
  extraEnv: Record<string, string> = {},
): Promise<{ app: App; url: string; token: string; userId: string }> {
  const env = parseEnv({
    ...extraEnv,
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    LOG_LEVEL: 'silent',
    DEMO: '0',
    PORT: '0',
    // Nothing outside this machine: the external catalogue points at a closed port.
    CATALOGUE_URL: 'http://127.0.0.1:9',
  });
  const { app } = await buildApp({ env, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const res = await fetch(`${url}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${crypto.randomUUID()}@example.com`,
      password: 'bench-pass',
      display_name: 'Bench User',
    }),
  });
  if (res.status !== 201)
    throw new Error(`bench sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  return { app, url, token: body.access_token, userId: body.user.id };
}

async function rps(url: string, token: string, seconds: number) {
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function homeRps(database: Database, dataDir: string, seconds: number, log: Log) {
  const { app, url, token } = await startApp(database, dataDir);
  try {
    const home = await fetch(`${url}/api/songs/home`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await home.json()) as { recent: unknown[]; popular: unknown[] };
    if (home.status !== 200 || body.recent.length !== 6 || body.popular.length !== 6)
      throw new Error('home is not answering 6+6');
    await rps(`${url}/api/health`, token, 1);
    await rps(`${url}/api/songs/home`, token, 1);
    const health = await rps(`${url}/api/health`, token, seconds);
    const homeRate = await rps(`${url}/api/songs/home`, token, seconds);
    log(`  home ${round(homeRate)} req/s, health ${round(health)} req/s`);
    return { home: homeRate, health };
  } finally {
    await app.close();
  }
}

// ---------------------------------------------------------------------------------------
// Upload memory

function multipartStream(fileName: string, file: () => AsyncGenerator<Buffer>) {
  const boundary = `----canto-bench-${crypto.randomUUID()}`;
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench upload\r\n`,
    );
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    yield* file();
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.from(body()) };
}

async function uploadOnce(url: string, token: string, bytes: number) {
  const { contentType, body } = multipartStream('bench.wav', lazyWav(bytes));
  const res = await fetch(`${url}/api/songs`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    body: Readable.toWeb(body) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text}`);
  return JSON.parse(text) as { duration: number };
}

/** Server and client share this process: RSS is sampled every 20 ms while 100 MB streams through. */
async function uploadMemory(log: Log) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-upload-'));
  const database = await openPglite(path.join(dataDir, 'db'));
  await database.migrate();
  const { app, url, token, userId } = await startApp(database, dataDir);
  try {
    await database.db.execute(
      sql`insert into user_roles (user_id, role) values (${userId}, 'artist')`,
    );
    // Warm-up: loads the parser, sharp and the multipart code before idle is measured.
    await uploadOnce(url, token, 1 * MB);
    global.gc?.();
    await new Promise((r) => setTimeout(r, 300));
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const size = 100 * MB - 4096;
    const started = performance.now();
    let song;
    try {
      song = await uploadOnce(url, token, size);
    } finally {
      clearInterval(timer);
    }
    const seconds = (performance.now() - started) / 1000;
    const expected = (size - 44) / 88200;
    if (Math.abs(song.duration - expected) > 0.01)
      throw new Error(`duration ${song.duration}, expected ${expected}`);
    log(
      `  100 MB upload in ${round(seconds)} s (${round(100 / seconds)} MB/s); idle RSS ${round(idle / MB)} MB, peak ${round(peak / MB)} MB`,
    );
    return { aboveIdleMb: (peak - idle) / MB, seconds };
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Engines

/**
 * A throwaway database from the app's migrations, dropped afterwards; or, with `keep`, the
 * database of that name, created when missing and left in place (a bench that loads a
 * million rows can then be run again without loading them).
 */
export async function withBenchPostgres<T>(
  run: (database: Database, url: string) => Promise<T>,
  keep?: string,
): Promise<T> {
  const name = keep ?? `canto_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  if (keep) {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    await client.end();
    if (found.rowCount === 0) await admin(`create database "${name}"`);
  } else await admin(`create database "${name}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const database = await openPostgres(u.toString(), 10);
  try {
    await database.migrate();
    return await run(database, u.toString());
  } finally {
    await database.close().catch(() => {});
    if (!keep) await admin(`drop database if exists "${name}" with (force)`);
  }
}

export async function postgresReachable() {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function engineBench(
  label: string,
  database: Database,
  dataDir: string,
  sizes: { home: number; search: number },
  options: Required<Pick<CatalogueBenchOptions, 'iterations' | 'seconds'>>,
  log: Log,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let t = performance.now();
  await bulkInsert(database, 1, sizes.home);
  log(
    `  ${label}: inserted ${sizes.home.toLocaleString()} songs in ${round((performance.now() - t) / 1000)} s`,
  );
  const home = await homeRps(database, dataDir, options.seconds, log);
  rows.push(
    row(
      `${label}: GET /api/songs/home at ${sizes.home.toLocaleString()} songs`,
      home.home,
      home.health,
      'higher',
      {
        unit: 'req/s',
        baselineName: 'GET /api/health',
      },
    ),
  );

  t = performance.now();
  if (sizes.search > sizes.home) await bulkInsert(database, sizes.home + 1, sizes.search);
  const n = await countSongs(database);
  log(`  ${label}: ${n.toLocaleString()} songs (${round((performance.now() - t) / 1000)} s more)`);
  const s = await searchLatency(database, options.iterations);
  log(
    `  ${label}: search p50 ${round(s.p50)} ms, p95 ${round(s.p95)} ms; SELECT 1 p50 ${round(s.baseP50)} ms, p95 ${round(s.baseP95)} ms`,
  );
  for (const line of s.byTerm) log(`    ${label}: ${line}`);
  log(`  ${label}: slowest cases (p50): ${s.slowest.join('; ')}`);
  rows.push(
    row(`${label}: search p50 at ${n.toLocaleString()} songs`, s.p50, s.baseP50, 'lower', {
      unit: 'ms',
      baselineName: 'SELECT 1 p50',
    }),
  );
  rows.push(
    row(`${label}: search p95 at ${n.toLocaleString()} songs`, s.p95, s.baseP95, 'lower', {
      unit: 'ms',
      baselineName: 'SELECT 1 p95',
      target: { text: 'p95 < 50 ms', met: s.p95 < 50 },
    }),
  );
  return rows;
}

export type CatalogueBenchOptions = {
  log?: Log;
  /** Songs for the PostgreSQL search figure (default 1,000,000). */
  postgresSongs?: number;
  /** Songs for the PGlite search figure (default 200,000). */
  pgliteSongs?: number;
  /** Songs when home is measured (default 100,000). */
  homeSongs?: number;
  iterations?: number;
  seconds?: number;
  skip?: Array<'upload' | 'postgres' | 'pglite'>;
};

export async function catalogueBench(options: CatalogueBenchOptions = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const skip = new Set(options.skip ?? []);
  const common = { iterations: options.iterations ?? 360, seconds: options.seconds ?? 5 };
  const homeSongs = options.homeSongs ?? 100_000;
  const rows: BenchRow[] = [];

  if (!skip.has('upload')) {
    log('upload: 100 MB WAV through a listening app…');
    const up = await uploadMemory(log);
    rows.push(
      row('upload 100 MB: server peak RSS above idle', up.aboveIdleMb, 80, 'lower', {
        unit: 'MB',
        baselineName: 'target',
        target: { text: '< 80 MB above idle', met: up.aboveIdleMb < 80 },
      }),
    );
  }

  if (!skip.has('postgres')) {
    if (await postgresReachable()) {
      log('postgres: throwaway database from the app migrations…');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-pg-'));
      try {
        rows.push(
          ...(await withBenchPostgres((db) =>
            engineBench(
              'postgres',
              db,
              dataDir,
              { home: homeSongs, search: options.postgresSongs ?? 1_000_000 },
              common,
              log,
            ),
          )),
        );
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    } else {
      log(`postgres: not reachable at ${adminUrl}; skipped`);
      rows.push(unavailable('postgres: search at 1,000,000 songs', 'PostgreSQL not reachable'));
    }
  }

  if (!skip.has('pglite')) {
    log('pglite: temp data directory…');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-pglite-'));
    const database = await openPglite(path.join(dataDir, 'db'));
    try {
      await database.migrate();
      rows.push(
        ...(await engineBench(
          'pglite',
          database,
          dataDir,
          { home: homeSongs, search: options.pgliteSongs ?? 200_000 },
          common,
          log,
        )),
      );
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const rows = await catalogueBench({
    log: (line) => console.log(line),
    postgresSongs: num('CATALOGUE_BENCH_PG_SONGS'),
    pgliteSongs: num('CATALOGUE_BENCH_PGLITE_SONGS'),
    homeSongs: num('CATALOGUE_BENCH_HOME_SONGS'),
    skip: (process.env.CATALOGUE_BENCH_SKIP?.split(',').filter(Boolean) ??
      []) as CatalogueBenchOptions['skip'],
  });
  console.table(rows);
}
