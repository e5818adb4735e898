/**
 * Revenue bench (docs/decisions/0029): the monthly run on a synthetic month.
 *
 * PostgreSQL: a throwaway database holding one month (the current UTC month, which the admin
 * route calculates) of REVENUE_BENCH_STREAMS stream records (default 10,000,000) by
 * REVENUE_BENCH_LISTENERS listeners (1,000,000; every 5th premium) over the songs of
 * REVENUE_BENCH_ARTISTS artists (50,000, four songs each), and REVENUE_BENCH_IMPRESSIONS ad
 * impressions (2,000,000), all made by INSERT … SELECT generate_series (triggers and foreign
 * keys off for the load, indexes built after it, then VACUUM ANALYZE). The production server
 * (`npm start`, DATABASE_URL) then runs POST /api/admin/revenue/calculate as an admin:
 * its time beside a bare `GROUP BY listener, artist` over the same month's records in the
 * same run (target: < 30 s and within 8×), and the server's peak RSS during it above its
 * idle RSS (target: < 200 MB).
 *
 * PGlite: the embedded engine at growing months (REVENUE_BENCH_PGLITE, default
 * 100000,300000,1000000 stream records, one listener per 10 records), in-process; reports
 * each size's run time and the largest that finished within REVENUE_BENCH_PGLITE_LIMIT_S
 * (default 60) seconds.
 *
 * Run alone: npx tsx bench/revenue.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { systemClock } from '../src/core/clock.ts';
import { monthOf } from '../src/core/validation/revenue.rules.ts';
import { openPglite, type Database } from '../src/server/db/client.ts';
import { createRevenueRuns } from '../src/server/modules/revenue/revenue.module.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { postgresReachable, withBenchPostgres } from './catalogue.bench.ts';
import { peakRssDuring, startServer } from './server-process.ts';

const round = (n: number) => Math.round(n * 100) / 100;
const seconds = (t: number) => round((performance.now() - t) / 1000);
const num = (name: string, fallback: number) =>
  process.env[name] ? Number(process.env[name]) : fallback;

export type RevenueSizes = {
  streams: number;
  listeners: number;
  artists: number;
  impressions: number;
};

type SQL = ReturnType<typeof sql>;
/** A version-4-shaped uuid from md5, so rows can name each other without a lookup. */
const uuidOf = (prefix: string, k: SQL) => {
  const h = sql`md5(${prefix}::text || ${k})`;
  return sql`(left(${h}, 12) || '4' || substr(${h}, 14, 3) || '8' || substr(${h}, 18, 15))::uuid`;
};
const k = sql.raw('k');
/** A deterministic pseudo-random integer in [0, n) per row and salt. */
const pick = (salt: number, n: number) => sql.raw(`(abs(hashint8extended(k, ${salt})) % ${n})`);

/** The month's rows, between the month's start and `until` (now, for the current month). */
export async function loadMonth(
  database: Database,
  sizes: RevenueSizes,
  month: { start: Date; until: Date },
  log: Log,
  options: { dropIndexes: boolean },
) {
  const t = performance.now();
  const spanMs = Math.max(1, month.until.getTime() - month.start.getTime() - 1000);
  const at = sql.raw(
    `('${month.start.toISOString()}'::timestamptz + ((abs(hashint8extended(k, 9)) % ${spanMs}) * interval '1 millisecond'))`,
  );
  const songs = sizes.artists * 4;
  const indexes = options.dropIndexes
    ? (
        (await database.db.execute(sql`
        select indexname, indexdef from pg_indexes
        where tablename in ('stream_analytics', 'ad_impressions')
          and indexname not like '%_pkey'`)) as unknown as {
          rows: Array<{ indexname: string; indexdef: string }>;
        }
      ).rows
    : [];
  for (const ix of indexes) await database.db.execute(sql.raw(`drop index "${ix.indexname}"`));
  await database.db.transaction(async (tx) => {
    // Consistent by construction: no per-row trigger or foreign key work during the load.
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into users (id, email, password_hash)
      select ${uuidOf('artist-', k)}, 'bench-artist-' || k || '@bench.local', 'x'
      from generate_series(0, ${sizes.artists - 1}) k`);
    await tx.execute(sql`
      insert into users (id, email, password_hash)
      select ${uuidOf('listener-', k)}, 'bench-listener-' || k || '@bench.local', 'x'
      from generate_series(0, ${sizes.listeners - 1}) k`);
    await tx.execute(sql`
      insert into songs (id, title, artist_id, file_url, duration_ms)
      select ${uuidOf('song-', k)}, 'Song ' || k, ${uuidOf('artist-', sql`k % ${sizes.artists}`)},
             '/media/music/bench.wav', 180000
      from generate_series(0, ${songs - 1}) k`);
    // Every 5th listener premium for the whole month.
    await tx.execute(sql`
      insert into subscriptions (user_id, provider, status, current_period_start,
                                 current_period_end, created_at)
      select ${uuidOf('listener-', k)}, 'local', 'active', ${month.start.toISOString()}::timestamptz,
             ${month.start.toISOString()}::timestamptz + interval '1 month',
             ${month.start.toISOString()}::timestamptz
      from generate_series(0, ${sizes.listeners - 1}, 5) k`);
  });
  log(`  loaded users, songs, subscriptions in ${seconds(t)} s`);
  const step = 1_000_000;
  // Songs skewed towards a popular few (cube of a uniform draw), as real listening is.
  const song = sql.raw(
    `floor(${songs} * power((abs(hashint8extended(k, 2)) % 1000000) / 1000000.0, 3))::int`,
  );
  for (let from = 0; from < sizes.streams; from += step) {
    const to = Math.min(sizes.streams, from + step) - 1;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed)
        select ${uuidOf('listener-', sql`${pick(1, sizes.listeners)}`)},
               ${uuidOf('song-', song)}, ${at}, ${pick(3, 240000)}, false
        from generate_series(${from}::bigint, ${to}::bigint) k`);
    });
    log(`  ${(to + 1).toLocaleString()} stream records after ${seconds(t)} s`);
  }
  for (let from = 0; from < sizes.impressions; from += step) {
    const to = Math.min(sizes.impressions, from + step) - 1;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into ad_impressions (user_id, song_id, created_at)
        select ${uuidOf('listener-', sql`${pick(5, sizes.listeners)}`)},
               ${uuidOf('song-', sql`${pick(6, songs)}`)}, ${at}
        from generate_series(${from}::bigint, ${to}::bigint) k`);
    });
  }
  log(`  ${sizes.impressions.toLocaleString()} impressions after ${seconds(t)} s`);
  for (const ix of indexes) await database.db.execute(sql.raw(ix.indexdef));
  await database.db.execute(sql`vacuum analyze`);
  log(`  indexes and VACUUM ANALYZE done after ${seconds(t)} s`);
  return seconds(t);
}

/** The baseline: a bare GROUP BY listener, artist over the month's records (rows not shipped). */
async function bareGroupBy(database: Database, start: Date, end: Date) {
  const t = performance.now();
  await database.db.execute(sql`
    select count(*) from (
      select sa.user_id, s.artist_id, sum(sa.listened_ms)
      from stream_analytics sa join songs s on s.id = sa.song_id
      where sa.played_at >= ${start.toISOString()}::timestamptz
        and sa.played_at < ${end.toISOString()}::timestamptz
      group by sa.user_id, s.artist_id) g`);
  return (performance.now() - t) / 1000;
}

async function postgresBench(sizes: RevenueSizes, log: Log): Promise<BenchRow[]> {
  return withBenchPostgres(async (database, url) => {
    const now = new Date();
    const month = monthOf(now);
    const start = new Date(`${month}-01T00:00:00Z`);
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    log(
      `postgres: ${sizes.streams.toLocaleString()} stream records, ${sizes.listeners.toLocaleString()} listeners, ${sizes.artists.toLocaleString()} artists, ${sizes.impressions.toLocaleString()} impressions`,
    );
    await loadMonth(database, sizes, { start, until: now }, log, { dropIndexes: true });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-revenue-bench-'));
    const server = await startServer('canto', {
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      DEMO: '0',
      REVENUE_MONTH_END_JOB: '0',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    });
    try {
      const email = `bench-admin-${Date.now()}@bench.local`;
      const signUp = await fetch(`${server.url}/api/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-pass-123', display_name: 'Bench Admin' }),
      });
      const { access_token: token, user } = (await signUp.json()) as {
        access_token: string;
        user: { id: string };
      };
      await database.db.execute(
        sql`insert into user_roles (user_id, role) values (${user.id}, 'admin')`,
      );
      // Warm the planner's statistics and the server's code paths on the route once.
      const baseline = await bareGroupBy(database, start, end);
      log(`  bare GROUP BY listener, artist: ${round(baseline)} s`);
      await new Promise((r) => setTimeout(r, 2000));
      const idle = server.rssMb();
      let runS = 0;
      let answer = '';
      const peak = await peakRssDuring(server, async () => {
        const t = performance.now();
        const res = await fetch(`${server.url}/api/admin/revenue/calculate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        runS = (performance.now() - t) / 1000;
        answer = await res.text();
        if (res.status !== 200) throw new Error(`calculate answered ${res.status}: ${answer}`);
      });
      log(`  calculate: ${round(runS)} s → ${answer}`);
      log(`  server RSS idle ${round(idle)} MB, peak ${round(peak)} MB`);
      const baseline2 = await bareGroupBy(database, start, end);
      const base = Math.min(baseline, baseline2);
      log(`  bare GROUP BY again: ${round(baseline2)} s`);
      return [
        row(
          `postgres: revenue run, ${sizes.streams.toLocaleString()} records`,
          runS,
          base,
          'lower',
          {
            unit: 's',
            baselineName: 'bare GROUP BY listener, artist',
            target: { text: '< 30 s and ≤ 8× baseline', met: runS < 30 && runS <= 8 * base },
          },
        ),
        row('postgres: server peak RSS above idle during the run', peak - idle, 200, 'lower', {
          unit: 'MB',
          baselineName: 'the 200 MB budget',
          target: { text: '< 200 MB', met: peak - idle < 200 },
        }),
      ];
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

async function pgliteBench(streamSizes: number[], limitS: number, log: Log): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let largest = 0;
  for (const streams of streamSizes) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-revenue-pglite-'));
    const database = await openPglite(dir);
    try {
      await database.migrate();
      const month = '2026-01';
      const start = new Date(`${month}-01T00:00:00Z`);
      const sizes = {
        streams,
        listeners: Math.max(10, Math.floor(streams / 10)),
        artists: Math.max(5, Math.floor(streams / 200)),
        impressions: Math.floor(streams / 5),
      };
      log(`pglite: ${streams.toLocaleString()} stream records`);
      await loadMonth(database, sizes, { start, until: new Date('2026-02-01T00:00:00Z') }, log, {
        dropIndexes: false,
      });
      const end = new Date('2026-02-01T00:00:00Z');
      const base = await bareGroupBy(database, start, end);
      const t = performance.now();
      const run = await createRevenueRuns(database, systemClock).calculate(month, null);
      const runS = (performance.now() - t) / 1000;
      log(
        `  run ${round(runS)} s (${run.artistsProcessed} artists); bare GROUP BY ${round(base)} s`,
      );
      rows.push(
        row(`pglite: revenue run, ${streams.toLocaleString()} records`, runS, base, 'lower', {
          unit: 's',
          baselineName: 'bare GROUP BY listener, artist',
        }),
      );
      if (runS > limitS) break;
      largest = streams;
    } catch (error) {
      log(`  pglite at ${streams.toLocaleString()}: ${(error as Error).message}`);
      rows.push(unavailable(`pglite: ${streams.toLocaleString()} records`, 'failed'));
      break;
    } finally {
      await database.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  rows.push(
    row(
      `pglite: largest month run within ${limitS} s (records)`,
      largest,
      streamSizes[0]!,
      'higher',
      {
        unit: 'records',
        baselineName: 'smallest size tried',
      },
    ),
  );
  return rows;
}

export async function revenueBench({ log = console.log }: { log?: Log } = {}): Promise<BenchRow[]> {
  const sizes: RevenueSizes = {
    streams: num('REVENUE_BENCH_STREAMS', 10_000_000),
    listeners: num('REVENUE_BENCH_LISTENERS', 1_000_000),
    artists: num('REVENUE_BENCH_ARTISTS', 50_000),
    impressions: num('REVENUE_BENCH_IMPRESSIONS', 2_000_000),
  };
  const skip = new Set(process.env.REVENUE_BENCH_SKIP?.split(',') ?? []);
  const rows: BenchRow[] = [];
  if (!skip.has('postgres')) {
    if (await postgresReachable()) rows.push(...(await postgresBench(sizes, log)));
    else rows.push(unavailable('postgres: revenue run', 'PostgreSQL not reachable'));
  }
  if (!skip.has('pglite')) {
    const pgliteSizes = (process.env.REVENUE_BENCH_PGLITE ?? '100000,300000,1000000')
      .split(',')
      .map(Number);
    rows.push(...(await pgliteBench(pgliteSizes, num('REVENUE_BENCH_PGLITE_LIMIT_S', 60), log)));
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await revenueBench({ log: (line) => console.log(line) });
  console.table(rows);
  process.exit(0);
}
