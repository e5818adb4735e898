/**
 * Subsonic getNowPlaying bench: what 100 phone apps polling now playing every 10 s add to the
 * server's CPU. The real app (buildApp + listen on 127.0.0.1) on a throwaway PostgreSQL
 * database; 100 listeners, each with an app password and a song playing on their phone.
 * Time is compressed as the task allows: the same aggregate rate (100 clients / 10 s =
 * 10 polls per second) for NOW_PLAYING_BENCH_SECONDS (default 60), each poll signed with
 * token auth and a fresh salt as apps do, from a separate load process so that its CPU is not
 * the server's.
 *
 * The figure: the app process's CPU (process.cpuUsage) plus its database backends' (their
 * /proc stat, found in pg_stat_activity by this database's name, so other work on the machine
 * is not counted) while polled, minus the same measured idle for as long in the same run (the
 * quieter of an idle window before and one after), as a percentage of one core, after a warm-up burst (a server that has run a while). Target:
 * under 5 %. Beside it, at the same rate: `ping` (what authentication and the envelope cost,
 * which every /rest call pays) and GET /api/health (HTTP and the app's hooks alone).
 *
 * Run alone: npx tsx bench/subsonic-now-playing.bench.ts
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/server/db/client.ts';
import { queryRows } from '../src/server/db/sql-results.ts';
import { row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { postgresReachable, startApp, withBenchPostgres } from './catalogue.bench.ts';

const CLIENTS = 100;
const POLL_SECONDS = 10;
const TARGET_PERCENT = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds of this process and of the database's backends (by pid, summed). */
async function cpuNow(
  database: Database,
): Promise<{ node: number; backends: Map<number, number> }> {
  const pids = await queryRows<{ pid: number }>(
    database.db,
    sql`select pid from pg_stat_activity where datname = current_database()`,
  );
  const backends = new Map<number, number>();
  for (const { pid } of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      backends.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Not on this machine's /proc (a remote server): only the app's CPU is counted.
    }
  }
  const own = process.cpuUsage();
  return { node: (own.user + own.system) / 1e6, backends };
}

/** CPU seconds between two readings: the app's, and its backends' (new ones from 0). */
function cpuBetween(a: Awaited<ReturnType<typeof cpuNow>>, b: Awaited<ReturnType<typeof cpuNow>>) {
  let backends = 0;
  for (const [pid, s] of b.backends) backends += s - (a.backends.get(pid) ?? 0);
  return { node: b.node - a.node, backends };
}

/** The load process: polls getNowPlaying at `rate` per second over the accounts, in turn. */
const LOAD_SCRIPT = `
const crypto = require('node:crypto');
const fs = require('node:fs');
const { url, accounts, rate, seconds, method, burst } = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
let i = 0, done = 0, errors = 0;
const latencies = [];
async function poll() {
  const a = accounts[i++ % accounts.length];
  const s = crypto.randomBytes(6).toString('hex');
  const t = crypto.createHash('md5').update(a.secret + s).digest('hex');
  const q = new URLSearchParams({ u: a.email, t, s, v: '1.16.1', c: 'BenchPhone', f: 'json' });
  const start = performance.now();
  try {
    if (method === 'health') {
      const res = await fetch(url + '/api/health');
      await res.text();
      if (res.status !== 200) errors++;
    } else {
      const res = await fetch(url + '/rest/' + method + '?' + q);
      const body = (await res.json())['subsonic-response'];
      if (body.status !== 'ok' || (method === 'getNowPlaying' && body.nowPlaying.entry.length !== 1))
        errors++;
    }
  } catch { errors++; }
  latencies.push(performance.now() - start);
  done++;
}
if (burst) {
  // Warm-up: as fast as 10 callers go, so the server's code is compiled before it is measured.
  (async () => {
    await Promise.all(Array.from({ length: 10 }, async () => { while (done < burst) await poll(); }));
    process.stdout.write(JSON.stringify({ done, errors, p50: 0, p95: 0 }));
    process.exit(0);
  })();
} else {
const timer = setInterval(poll, 1000 / rate);
setTimeout(async () => {
  clearInterval(timer);
  await new Promise((r) => setTimeout(r, 2000));
  latencies.sort((x, y) => x - y);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  process.stdout.write(JSON.stringify({ done, errors, p50: p(0.5), p95: p(0.95) }));
  process.exit(0);
}, seconds * 1000);
}
`;

function runLoad(
  file: string,
  input: {
    url: string;
    accounts: { email: string; secret: string }[];
    rate: number;
    seconds: number;
    method: 'getNowPlaying' | 'ping' | 'health';
    burst?: number;
  },
): Promise<{ done: number; errors: number; p50: number; p95: number }> {
  fs.writeFileSync(file, JSON.stringify(input));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOAD_SCRIPT, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load process exited ${code}`)),
    );
  });
}

export async function subsonicNowPlayingBench(
  options: { log?: Log; seconds?: number } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const seconds = options.seconds ?? Number(process.env.NOW_PLAYING_BENCH_SECONDS ?? 60);
  const name = `getNowPlaying: ${CLIENTS} clients every ${POLL_SECONDS} s, added server CPU`;
  if (!(await postgresReachable())) return [unavailable(name, 'no PostgreSQL server')];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-now-playing-'));
  const loadFile = path.join(dataDir, 'load.json');
  try {
    return await withBenchPostgres(async (database) => {
      // Folds off: the idle and loaded windows then differ by the polls alone.
      const { app, url, userId } = await startApp(database, dataDir, {
        PLAY_COUNT_FOLD_SECONDS: '0',
      });
      try {
        // One artist's songs (an hour long: no entry expires during the run).
        await database.db.execute(
          sql`insert into songs (artist_id, artist, title, genre, file_url, file_key, duration_ms)
              select ${userId}, 'Bench Artist', 'Song ' || n, 'Rock', '/media/music/s' || n || '.mp3',
                'music/s' || n || '.mp3', 3600000
              from generate_series(1, 20) n`,
        );
        const songIds = (
          await queryRows<{ id: string }>(database.db, sql`select id from songs order by id`)
        ).map((r) => r.id);
        log(`now-playing bench: signing up ${CLIENTS} listeners`);
        const accounts: { email: string; secret: string }[] = [];
        for (let i = 0; i < CLIENTS; i++) {
          const email = `np-${i}-${crypto.randomUUID()}@bench.test`;
          // In-process requests, each from its own address: sign-up is rate-limited per IP.
          const res = await app.inject({
            method: 'POST',
            url: '/api/auth/sign-up',
            remoteAddress: `10.77.${i >> 8}.${i & 255}`,
            payload: { email, password: 'bench-pass', display_name: `Phone ${i}` },
          });
          if (res.statusCode !== 201) throw new Error(`sign-up ${res.statusCode}: ${res.body}`);
          const { access_token: token } = res.json<{ access_token: string }>();
          const created = await app.inject({
            method: 'POST',
            url: '/api/me/subsonic/passwords',
            headers: { authorization: `Bearer ${token}` },
            payload: { name: 'Phone' },
          });
          if (created.statusCode !== 201) throw new Error(`app password ${created.statusCode}`);
          const { password: secret } = created.json<{ password: string }>();
          const q = new URLSearchParams({
            u: email,
            p: secret,
            v: '1.16.1',
            c: 'BenchPhone',
            f: 'json',
            id: songIds[i % songIds.length]!,
            submission: 'false',
          });
          const set = (await (await fetch(`${url}/rest/scrobble?${q}`)).json()) as Record<
            string,
            { status: string }
          >;
          if (set['subsonic-response']!.status !== 'ok') throw new Error('scrobble failed');
          accounts.push({ email, secret });
        }
        const rate = CLIENTS / POLL_SECONDS;
        log('now-playing bench: warming up (2,000 polls, then 1,000 pings)');
        const load = (method: 'getNowPlaying' | 'ping' | 'health', burst?: number) =>
          runLoad(loadFile, { url, accounts, rate, seconds, method, burst });
        await load('getNowPlaying', 2000);
        await load('ping', 1000);
        await load('health', 1000);

        const pct = (cpu: { node: number; backends: number }, wall: number) =>
          ((cpu.node + cpu.backends) / wall) * 100;
        const measure = async (what: string, work: () => Promise<unknown>) => {
          await sleep(2000);
          const start = await cpuNow(database);
          const t = performance.now();
          const result = await work();
          const cpu = cpuBetween(start, await cpuNow(database));
          const wall = (performance.now() - t) / 1000;
          log(
            `now-playing bench: ${what}: CPU ${pct(cpu, wall).toFixed(2)} % of a core ` +
              `(app ${((cpu.node / wall) * 100).toFixed(2)}, db ${((cpu.backends / wall) * 100).toFixed(2)})`,
          );
          return { percent: pct(cpu, wall), result };
        };
        const idleBefore = await measure(`idle ${seconds} s`, () => sleep(seconds * 1000));
        const health = await measure(`GET /api/health ${rate}/s`, () => load('health'));
        const ping = await measure(`ping ${rate}/s`, () => load('ping'));
        const polled = await measure(`getNowPlaying ${rate}/s`, () => load('getNowPlaying'));
        const idleAfter = await measure(`idle again ${seconds} s`, () => sleep(seconds * 1000));
        // The quieter idle window (a background job may wake in one), so the figure errs high.
        const idle = idleBefore.percent <= idleAfter.percent ? idleBefore : idleAfter;
        const result = polled.result as Awaited<ReturnType<typeof runLoad>>;
        const failed = [polled, ping, health].reduce(
          (n, m) => n + (m.result as Awaited<ReturnType<typeof runLoad>>).errors,
          0,
        );
        if (failed > 0) throw new Error(`${failed} requests failed`);
        const added = polled.percent - idle.percent;
        log(
          `now-playing bench: ${result.done} polls, p50 ${result.p50.toFixed(1)} ms, ` +
            `p95 ${result.p95.toFixed(1)} ms; added ${added.toFixed(2)} %, of which ` +
            `authentication and envelope (ping) ${(ping.percent - idle.percent).toFixed(2)} %, ` +
            `HTTP and the app's hooks (GET /api/health) ${(health.percent - idle.percent).toFixed(2)} %`,
        );
        return [
          row(name, added, TARGET_PERCENT, 'lower', {
            unit: '% of a core',
            baselineName: 'the 5 % budget',
            target: { text: `< ${TARGET_PERCENT} %`, met: added < TARGET_PERCENT },
          }),
          row(
            `getNowPlaying vs ping (auth + envelope) at ${rate}/s, added CPU`,
            added,
            ping.percent - idle.percent,
            'lower',
            { unit: '% of a core', baselineName: 'ping' },
          ),
          row(
            `GET /api/health at ${rate}/s (HTTP and app hooks only), added CPU`,
            health.percent - idle.percent,
            TARGET_PERCENT,
            'lower',
            { unit: '% of a core', baselineName: 'the 5 % budget' },
          ),
          row(`getNowPlaying p95 at ${rate} polls/s`, result.p95, result.p50, 'lower', {
            unit: 'ms',
            baselineName: 'p50',
          }),
        ];
      } finally {
        await app.close();
      }
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await subsonicNowPlayingBench({ log: (line) => console.log(line) });
  console.table(rows);
  process.exit(0);
}
