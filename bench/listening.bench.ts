/**
 * Listening bench (ADR 0016), through the real app (buildApp + listen on 127.0.0.1):
 *
 * (a) Stream-record writes: 16 keep-alive clients in a worker thread, each looping
 *     POST /api/plays then PATCH /api/plays/{id} (a start and one progress report per play)
 *     over 1,000 songs, beside GET /api/health from the same clients in the same run
 *     (requests/s against requests/s). On PGlite (a fresh data directory, the default
 *     engine) and on PostgreSQL (the loaded database of (b), so every write maintains the
 *     indexes of a 10,000,000-row table).
 * (b) GET /api/me/stats latency p50/p95 on PostgreSQL for a listener with 100,000 plays among
 *     10,000,000 records (10,000 other listeners, 100,000 songs, plays spread over a year,
 *     the listener's interleaved with everyone's), beside GET /api/health. Rows come from
 *     INSERT … SELECT generate_series; the table's secondary indexes are dropped for the load
 *     and built again after it (as a restore does), then VACUUM ANALYZE; the load time is
 *     reported. The load bypasses the triggers that keep the listener totals (replica
 *     role), so the totals are then built by `listening_totals_rebuild()`, the migration's
 *     backfill: its time is what migration 0007 costs on such a table.
 *
 * (c) Listening-record writes from 1,000 distinct listeners on PostgreSQL: 64 keep-alive
 *     clients, each write a POST /api/plays or a PATCH of it (one start, one report per play),
 *     writes/s and p99, beside a bare single-row `INSERT … ON CONFLICT` through the same pool
 *     from 64 concurrent callers in the same run. The server under test has autovacuum off,
 *     so the bench vacuums the written tables every few seconds from its own connection, as
 *     autovacuum would.
 *
 * PostgreSQL: a throwaway database from the app migrations, dropped afterwards.
 * Run alone: npx tsx bench/listening.bench.ts   (LISTENING_BENCH_PLAYS, LISTENING_BENCH_SECONDS,
 * LISTENING_BENCH_SKIP=postgres,pglite,many; LISTENING_BENCH_SAMPLE=1 logs what the
 * database sessions were doing during (c)'s writes)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPglite, type Database } from '../src/server/db/client.ts';
import { newOpaqueToken, tokenHash } from '../src/server/security/tokens.ts';
import { GENRES } from '../src/core/validation/song.rules.ts';
import { row, unavailable, type BenchRow, type Log, CLOSED_LOOP_RUN } from './bench-kit.ts';
import {
  adminUrl,
  arr,
  percentile,
  postgresReachable,
  startApp,
  withBenchPostgres,
} from './catalogue.bench.ts';

const round = (n: number) => Math.round(n * 100) / 100;
const CLIENTS = 16;
const TARGET_P95_MS = 100;
const SONGS = 100_000;
const LISTENERS = 10_000;
const WRITE_SONGS = 1_000;
/** Sequential GET /api/me/stats after 5 warm-up requests (p95 of 60 is its 58th). */
const STATS_SAMPLES = 60;

type SQL = ReturnType<typeof sql>;
/** A version-4-shaped uuid from md5, so rows can name each other without a lookup. */
const uuidOf = (prefix: string, k: SQL) => {
  const h = sql`md5(${prefix}::text || ${k})`;
  return sql`(left(${h}, 12) || '4' || substr(${h}, 14, 3) || '8' || substr(${h}, 18, 15))::uuid`;
};
const k = sql.raw('k');
const i = sql.raw('i');
/** A deterministic pseudo-random integer in [0, n) per row and salt. */
const pick = (salt: number, n: number) => sql.raw(`(abs(hashint8extended(i, ${salt})) % ${n})`);

/** 100,000 songs by 2,000 artist names over the spec genres, 2–6 minutes long. */
async function insertSongs(database: Database, count: number) {
  await database.db.execute(sql`
    insert into songs (id, title, artist, genre, file_url, duration_ms)
    select ${uuidOf('bench-song-', k)}, 'Song ' || k, 'Artist ' || (k % 2000),
      (${arr([...GENRES])})[1 + k % ${GENRES.length}], '/media/music/bench.wav',
      120000 + (k * 7919) % 240000
    from generate_series(0, ${count - 1}) k`);
}

async function insertListeners(database: Database, count: number) {
  await database.db.execute(sql`
    insert into users (id, email, password_hash)
    select ${uuidOf('bench-listener-', k)}, 'bench-listener-' || k || '@bench.local', 'x'
    from generate_series(0, ${count - 1}) k`);
}

/**
 * Plays `from`..`to` of `total`: every 100th is the measured listener's, the rest one of
 * the other listeners'; songs skewed towards a popular few; one play every ~3 s over the
 * year before now, so the listener's rows are interleaved with everyone's on disk.
 */
async function insertPlays(
  database: Database,
  listenerId: string,
  from: number,
  to: number,
  total: number,
) {
  const song = sql.raw(
    `floor(${SONGS} * power((abs(hashint8extended(i, 2)) % 1000000) / 1000000.0, 3))::int`,
  );
  await database.db.transaction(async (tx) => {
    // Rows are consistent by construction: skip the per-row foreign key checks of the load.
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed)
      select
        case when i % 100 = 0 then ${listenerId}::uuid
          else ${uuidOf('bench-listener-', sql`${pick(1, LISTENERS)}`)} end,
        ${uuidOf('bench-song-', song)},
        now() - ((${total}::bigint - ${i}) * interval '3 seconds'),
        ${pick(3, 360000)},
        ${pick(4, 10)} < 6
      from generate_series(${from}::bigint, ${to}::bigint) as i`);
  });
}

/** Loads (b)'s data set; returns the seconds it took and those of the totals' backfill. */
export async function loadPlays(
  database: Database,
  listenerId: string,
  plays: number,
  log: Log,
): Promise<{ loadS: number; backfillS: number }> {
  const t = performance.now();
  await insertSongs(database, SONGS);
  await insertListeners(database, LISTENERS);
  // Every index goes for the load (the primary key's random uuids too) and comes back after.
  const indexes = (
    (await database.db.execute(sql`
      select indexname, indexdef from pg_indexes
      where tablename = 'stream_analytics' and indexname <> 'stream_analytics_pkey'`)) as unknown as {
      rows: Array<{ indexname: string; indexdef: string }>;
    }
  ).rows;
  for (const ix of indexes) await database.db.execute(sql.raw(`drop index "${ix.indexname}"`));
  await database.db.execute(
    sql`alter table stream_analytics drop constraint stream_analytics_pkey`,
  );
  const step = 1_000_000;
  for (let from = 1; from <= plays; from += step) {
    await insertPlays(database, listenerId, from, Math.min(plays, from + step - 1), plays);
    log(
      `  postgres: ${Math.min(plays, from + step - 1).toLocaleString()} plays after ${seconds(t)} s`,
    );
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    await tx.execute(
      sql`alter table stream_analytics add constraint stream_analytics_pkey primary key (id)`,
    );
    for (const ix of indexes) await tx.execute(sql.raw(ix.indexdef));
  });
  await database.db.execute(sql`vacuum analyze stream_analytics`);
  await database.db.execute(sql`analyze songs`);
  const loadS = seconds(t);
  const b = performance.now();
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`select listening_totals_rebuild()`);
  });
  for (const table of ['listener_totals', 'listener_songs', 'listener_artists', 'listener_genres'])
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
  const backfillS = seconds(b);
  log(`  postgres: listener totals backfilled in ${backfillS} s`);
  return { loadS, backfillS };
}

const seconds = (t: number) => round((performance.now() - t) / 1000);

// ---------------------------------------------------------------------------------------
// Load generators (a worker thread, so the clients do not share the server's event loop)

type LoadResult = {
  requests: number;
  plays: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
};

const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, token, songs, mode, clients, warmupMs, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const send = (method, path, body) => new Promise((resolve, reject) => {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = { authorization: 'Bearer ' + token };
  if (payload) { headers['content-type'] = 'application/json'; headers['content-length'] = Buffer.byteLength(payload); }
  const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
  });
  req.on('error', reject);
  req.end(payload);
});
const result = { requests: 0, plays: 0, errors: 0, statuses: {}, seconds: 0 };
let n = 0;
const count = (record, status) => {
  if (!record) return;
  result.requests++;
  result.statuses[status] = (result.statuses[status] ?? 0) + 1;
};
async function client(until, record) {
  while (performance.now() < until) {
    try {
      if (mode === 'health') {
        const r = await send('GET', '/api/health');
        count(record, r.status);
        continue;
      }
      const song = songs[(n++ * 7919) % songs.length];
      const started = await send('POST', '/api/plays', { song_id: song });
      count(record, started.status);
      if (started.status !== 201) continue;
      const { id } = JSON.parse(started.body);
      const reported = await send('PATCH', '/api/plays/' + id, { listened_ms: 30000 + (n % 200000) });
      count(record, reported.status);
      if (record && reported.status === 200) result.plays++;
    } catch {
      if (record) result.errors++;
    }
  }
}
${CLOSED_LOOP_RUN}
`;

function load(
  port: number,
  token: string,
  songs: string[],
  mode: 'health' | 'plays',
  durationS: number,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, {
      eval: true,
      workerData: {
        port,
        token,
        songs,
        mode,
        clients: CLIENTS,
        warmupMs: 2000,
        durationMs: durationS * 1000,
      },
    });
    worker.on('message', (m: LoadResult | { timed: true }) => {
      if ('timed' in m) return;
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

async function writeSongIds(database: Database, count: number): Promise<string[]> {
  const result = (await database.db.execute(
    sql`select id from songs order by id limit ${count}`,
  )) as unknown as { rows: Array<{ id: string }> };
  return result.rows.map((r) => r.id);
}

async function signUpToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${crypto.randomUUID()}@example.com`,
      password: 'bench-pass',
      display_name: 'Bench Writer',
    }),
  });
  if (res.status !== 201) throw new Error(`bench sign-up failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** (a) on an app already listening: plays (start + report) beside /api/health. */
async function measureWrites(
  label: string,
  app: { url: string; token: string },
  database: Database,
  durationS: number,
  log: Log,
): Promise<BenchRow[]> {
  const port = Number(new URL(app.url).port);
  const songs = await writeSongIds(database, WRITE_SONGS);
  const health = await load(port, app.token, songs, 'health', durationS);
  const plays = await load(port, app.token, songs, 'plays', durationS);
  const bad = Object.entries(plays.statuses).filter(([s]) => s !== '200' && s !== '201');
  if (bad.length > 0 || plays.errors > 0 || health.errors > 0)
    throw new Error(`writes answered ${JSON.stringify(plays.statuses)}, ${plays.errors} errors`);
  const healthRate = health.requests / health.seconds;
  const requestRate = plays.requests / plays.seconds;
  const playRate = plays.plays / plays.seconds;
  log(
    `  ${label}: ${round(playRate)} plays/s (start + report: ${round(requestRate)} req/s); /api/health ${round(healthRate)} req/s; ${CLIENTS} clients`,
  );
  return [
    row(`${label}: stream-record writes (POST + PATCH), req/s`, requestRate, healthRate, 'higher', {
      unit: 'req/s',
      baselineName: 'GET /api/health',
    }),
    row(`${label}: plays recorded (start + 1 report each)`, playRate, healthRate / 2, 'higher', {
      unit: 'plays/s',
      baselineName: 'health req/s ÷ 2',
    }),
  ];
}

/** Sequential requests from one keep-alive client: latencies in ms. */
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

async function postgresBench(plays: number, durationS: number, log: Log): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-listening-pg-'));
  try {
    return await withBenchPostgres(async (database) => {
      const app = await startApp(database, dataDir);
      try {
        const { loadS, backfillS } = await loadPlays(database, app.userId, plays, log);
        const [{ n: mine } = { n: 0 }] = (
          (await database.db.execute(
            sql`select count(*)::int as n from stream_analytics where user_id = ${app.userId}`,
          )) as unknown as { rows: Array<{ n: number }> }
        ).rows;
        log(
          `  postgres: ${plays.toLocaleString()} plays (${mine.toLocaleString()} the listener's), ${SONGS.toLocaleString()} songs, ${LISTENERS.toLocaleString()} listeners loaded in ${loadS} s`,
        );
        const statsUrl = `${app.url}/api/me/stats`;
        const first = await fetch(statsUrl, { headers: { authorization: `Bearer ${app.token}` } });
        const body = (await first.json()) as { totalStreams: number };
        if (body.totalStreams !== mine)
          throw new Error(`stats say ${body.totalStreams} streams, the table ${mine}`);
        await latencies(statsUrl, app.token, 5);
        const stats = await latencies(statsUrl, app.token, STATS_SAMPLES);
        const health = await latencies(`${app.url}/api/health`, app.token, STATS_SAMPLES);
        const s = { p50: percentile(stats, 50), p95: percentile(stats, 95) };
        const h = { p50: percentile(health, 50), p95: percentile(health, 95) };
        log(
          `  postgres: GET /api/me/stats p50 ${round(s.p50)} / p95 ${round(s.p95)} ms; /api/health p50 ${round(h.p50)} / p95 ${round(h.p95)} ms`,
        );
        const at = `${(mine / 1000).toLocaleString()}k plays of ${(plays / 1e6).toLocaleString()}M`;
        const rows: BenchRow[] = [
          row(
            `postgres: load ${plays.toLocaleString()} plays (generate_series)`,
            loadS,
            NaN,
            'lower',
            {
              unit: 's',
              baselineName: 'indexes rebuilt, vacuum analyze',
            },
          ),
          row(
            `postgres: backfill the listener totals from ${plays.toLocaleString()} plays`,
            backfillS,
            NaN,
            'lower',
            { unit: 's', baselineName: 'listening_totals_rebuild(), migration 0007' },
          ),
          row(`postgres: GET /api/me/stats p50 (${at})`, s.p50, h.p50, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p50',
          }),
          row(`postgres: GET /api/me/stats p95 (${at})`, s.p95, h.p95, 'lower', {
            unit: 'ms',
            baselineName: 'GET /api/health p95',
            target: { text: `p95 < ${TARGET_P95_MS} ms`, met: s.p95 < TARGET_P95_MS },
          }),
        ];
        // A fresh listener's token: the load and the backfill can outlast the first one.
        const writer = { url: app.url, token: await signUpToken(app.url) };
        rows.push(
          ...(await measureWrites('postgres (10M-row table)', writer, database, durationS, log)),
        );
        return rows;
      } finally {
        await app.app.close();
      }
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function pgliteBench(durationS: number, log: Log): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-listening-pglite-'));
  const database = await openPglite(path.join(dataDir, 'db'));
  try {
    await database.migrate();
    await insertSongs(database, WRITE_SONGS);
    const app = await startApp(database, dataDir);
    try {
      return await measureWrites('pglite', app, database, durationS, log);
    } finally {
      await app.app.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// (c) Listening-record writes from many listeners

const MANY_LISTENERS = 1_000;
const MANY_CLIENTS = 64;
const MANY_TARGET = { rate: 1_500, p99Ms: 100 };
/** The tables a play writes, vacuumed as autovacuum would (it is off on the bench server). */
const WRITTEN_TABLES = [
  'stream_analytics',
  'songs',
  'play_count_deltas',
  'listening_deltas',
  'listener_totals',
  'listener_songs',
  'listener_artists',
  'listener_genres',
];

type WritesResult = {
  writes: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  latencies: number[];
};

const MANY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, tokens, songs, clients, warmupMs, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const send = (token, method, path, body) => new Promise((resolve, reject) => {
  const payload = JSON.stringify(body);
  const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload) };
  const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
  });
  req.on('error', reject);
  req.end(payload);
});
const result = { writes: 0, errors: 0, statuses: {}, seconds: 0, latencies: [] };
let n = 0;
async function timed(record, token, method, path, body) {
  const t = performance.now();
  const r = await send(token, method, path, body);
  if (record) {
    result.latencies.push(performance.now() - t);
    result.writes++;
    result.statuses[r.status] = (result.statuses[r.status] ?? 0) + 1;
  }
  return r;
}
async function client(until, record) {
  while (performance.now() < until) {
    try {
      const k = n++;
      // Consecutive plays go to different listeners: 1,000 of them, each one's plays in turn.
      const token = tokens[k % tokens.length];
      const song = songs[(k * 7919) % songs.length];
      const started = await timed(record, token, 'POST', '/api/plays', { song_id: song });
      if (started.status !== 201) continue;
      const { id } = JSON.parse(started.body);
      await timed(record, token, 'PATCH', '/api/plays/' + id, { listened_ms: 30000 + (k % 200000) });
    } catch {
      if (record) result.errors++;
    }
  }
}
${CLOSED_LOOP_RUN}
`;

function manyWrites(
  port: number,
  tokens: string[],
  songs: string[],
  durationS: number,
): Promise<WritesResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(MANY_WORKER, {
      eval: true,
      workerData: {
        port,
        tokens,
        songs,
        clients: MANY_CLIENTS,
        warmupMs: 3000,
        durationMs: durationS * 1000,
      },
    });
    worker.on('message', (m: WritesResult | { timed: true }) => {
      if ('timed' in m) return;
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

/** The baseline: one bare single-row upsert per call, 64 callers at once, through the app's pool. */
async function bareUpserts(database: Database, durationS: number) {
  await database.db.execute(
    sql`create table if not exists bench_bare_upsert (k int primary key, n bigint not null)`,
  );
  const latencies: number[] = [];
  let k = 0;
  const run = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const key = k++ % MANY_LISTENERS;
      const t = performance.now();
      await database.db.execute(
        sql`insert into bench_bare_upsert (k, n) values (${key}, 1)
            on conflict (k) do update set n = bench_bare_upsert.n + 1`,
      );
      if (record) latencies.push(performance.now() - t);
    }
  };
  const warm = performance.now() + 3000;
  await Promise.all(Array.from({ length: MANY_CLIENTS }, () => run(warm, false)));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: MANY_CLIENTS }, () => run(started + durationS * 1000, true)),
  );
  const secs = (performance.now() - started) / 1000;
  await database.db.execute(sql`drop table bench_bare_upsert`);
  return { rate: latencies.length / secs, p99: percentile(latencies, 99) };
}

/** Every few seconds, VACUUM (ANALYZE) the written tables from a connection of its own. */
function vacuumLikeAutovacuum(url: string, everyMs = 5_000) {
  const client = new pg.Client({ connectionString: url });
  let stopped = false;
  const done = (async () => {
    await client.connect();
    while (!stopped) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (stopped) break;
      for (const table of WRITTEN_TABLES) {
        const exists = await client.query('select to_regclass($1) is not null as ok', [table]);
        if (exists.rows[0]?.ok) await client.query(`vacuum (analyze) ${table}`);
      }
    }
    await client.end();
  })();
  return async () => {
    stopped = true;
    await done;
  };
}

function sampleActivity(url: string) {
  const client = new pg.Client({ connectionString: url });
  let stopped = false;
  const seen = new Map<string, number>();
  const done = (async () => {
    await client.connect();
    while (!stopped) {
      const r = await client.query(
        `select coalesce(wait_event_type,'-')||':'||coalesce(wait_event,'cpu')||' '||state||' '||left(regexp_replace(query,'\\s+',' ','g'),50) as k from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      for (const { k } of r.rows as Array<{ k: string }>) seen.set(k, (seen.get(k) ?? 0) + 1);
      await new Promise((res) => setTimeout(res, 50));
    }
    await client.end();
  })();
  return async () => {
    stopped = true;
    await done;
    return [...seen]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([k, n]) => `${n} ${k}`)
      .join('\n');
  };
}

/** 1,000 listeners with a session each: an access token per listener from POST /api/auth/refresh. */
async function listenerTokens(database: Database, url: string, count: number): Promise<string[]> {
  await insertListeners(database, count);
  const refresh = Array.from({ length: count }, () => newOpaqueToken());
  await database.db.execute(sql`
    with s as (
      insert into sessions (user_id, expires_at)
      select ${uuidOf('bench-listener-', k)}, now() + interval '1 day'
      from generate_series(0, ${count - 1}) k
      returning id, user_id)
    insert into refresh_tokens (session_id, token_hash)
    select s.id, h.hash
    from unnest(${arr(refresh.map(tokenHash))}::text[]) with ordinality h(hash, k)
    join s on s.user_id = ${uuidOf('bench-listener-', sql.raw('(h.k - 1)'))}`);
  const tokens: string[] = [];
  for (const token of refresh) {
    const res = await fetch(`${url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: token }),
    });
    if (res.status !== 200) throw new Error(`bench refresh failed: ${res.status}`);
    tokens.push(((await res.json()) as { access_token: string }).access_token);
  }
  return tokens;
}

async function manyListenersBench(durationS: number, log: Log): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-listening-many-'));
  try {
    return await withBenchPostgres(async (database, databaseUrl) => {
      const app = await startApp(database, dataDir);
      try {
        await insertSongs(database, WRITE_SONGS);
        const tokens = await listenerTokens(database, app.url, MANY_LISTENERS);
        const songs = await writeSongIds(database, WRITE_SONGS);
        for (const table of WRITTEN_TABLES)
          await database.db.execute(sql.raw(`vacuum analyze ${table}`)).catch(() => {});
        const stopVacuum = vacuumLikeAutovacuum(databaseUrl);
        let bare: { rate: number; p99: number };
        let writes: WritesResult;
        try {
          bare = await bareUpserts(database, durationS);
          const sampler = process.env.LISTENING_BENCH_SAMPLE ? sampleActivity(databaseUrl) : null;
          writes = await manyWrites(Number(new URL(app.url).port), tokens, songs, durationS);
          if (sampler) log(await sampler());
        } finally {
          await stopVacuum();
        }
        const bad = Object.keys(writes.statuses).filter((s) => s !== '200' && s !== '201');
        if (bad.length > 0 || writes.errors > 0)
          throw new Error(
            `writes answered ${JSON.stringify(writes.statuses)}, ${writes.errors} errors`,
          );
        const rate = writes.writes / writes.seconds;
        const p99 = percentile(writes.latencies, 99);
        log(
          `  postgres, ${MANY_LISTENERS.toLocaleString()} listeners, ${MANY_CLIENTS} clients: ${round(rate)} writes/s, p50 ${round(percentile(writes.latencies, 50))} / p99 ${round(p99)} ms; bare INSERT … ON CONFLICT ${round(bare.rate)}/s, p99 ${round(bare.p99)} ms`,
        );
        return [
          row(
            `postgres: listening-record writes, ${MANY_LISTENERS.toLocaleString()} listeners, ${MANY_CLIENTS} clients`,
            rate,
            bare.rate,
            'higher',
            {
              unit: 'writes/s',
              baselineName: 'bare INSERT … ON CONFLICT, same pool',
              target: {
                text: `≥ ${MANY_TARGET.rate.toLocaleString()} writes/s`,
                met: rate >= MANY_TARGET.rate,
              },
            },
          ),
          row(
            `postgres: listening-record write p99, ${MANY_CLIENTS} clients`,
            p99,
            bare.p99,
            'lower',
            {
              unit: 'ms',
              baselineName: 'bare INSERT … ON CONFLICT p99',
              target: { text: `p99 < ${MANY_TARGET.p99Ms} ms`, met: p99 < MANY_TARGET.p99Ms },
            },
          ),
        ];
      } finally {
        await app.app.close();
      }
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export type ListeningBenchOptions = {
  log?: Log;
  plays?: number;
  seconds?: number;
  skip?: Array<'postgres' | 'pglite' | 'many'>;
};

export async function listeningBench(options: ListeningBenchOptions = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const skip = new Set(options.skip ?? []);
  const durationS = options.seconds ?? 10;
  const rows: BenchRow[] = [];
  if (!skip.has('pglite')) rows.push(...(await pgliteBench(durationS, log)));
  if (!skip.has('many')) {
    if (await postgresReachable()) rows.push(...(await manyListenersBench(durationS, log)));
    else rows.push(unavailable('postgres: listening-record writes', 'PostgreSQL not reachable'));
  }
  if (!skip.has('postgres')) {
    if (await postgresReachable()) {
      rows.push(...(await postgresBench(options.plays ?? 10_000_000, durationS, log)));
    } else {
      log(`postgres: not reachable at ${adminUrl}; skipped`);
      rows.push(unavailable('postgres: GET /api/me/stats', 'PostgreSQL not reachable'));
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const rows = await listeningBench({
    log: (line) => console.log(line),
    plays: num('LISTENING_BENCH_PLAYS'),
    seconds: num('LISTENING_BENCH_SECONDS'),
    skip: (process.env.LISTENING_BENCH_SKIP?.split(',').filter(Boolean) ??
      []) as ListeningBenchOptions['skip'],
  });
  console.table(rows);
  process.exit(0);
}
