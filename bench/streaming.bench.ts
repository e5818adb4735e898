/**
 * Streaming bench: Canto's media route against Debian's nginx serving the same ~20 MB file
 * on loopback, in the same run, with the same client (wrk when installed — `apt-get install
 * wrk` —, else autocannon in worker threads; the log and the rows say which).
 *
 * Three servers, measured in rotating order each round (the median round counts):
 * - nginx: a plain static server of DATA_DIR/media (the baseline);
 * - direct: Canto with MEDIA_OFFLOAD=none, Node sending the bytes;
 * - offloaded: nginx with the documented site config (docs/deploy/nginx/canto.conf) in front
 *   of Canto with MEDIA_OFFLOAD=x-accel: nginx asks Canto whether the signed URL may be
 *   served (auth_request, the answer cached per URL), then sends the file itself.
 * Canto is asked for a signed URL, as the API hands out.
 *
 * The log also gives the servers' CPU time per 64 KB Range request (nginx's workers plus
 * Canto, which runs in this process): unlike requests per second it hardly moves when
 * other work shares the machine, so it shows what each path costs.
 *
 * Rows (ratio = value / nginx's): 64 KB Range requests per second and whole-file GB/s, each
 * for the direct and the offloaded path. Targets: direct ≥ 0.5 on ranges and
 * ≥ 0.5 on whole files; offloaded ≥ 0.9 on both.
 *
 * Run alone: npx tsx bench/streaming.bench.ts. BENCH_NGINX_WORKERS (default 1, as Canto is
 * one process) sets nginx's worker_processes for both nginx roles; BENCH_CLIENT=autocannon
 * uses autocannon even where wrk is installed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/server/app.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { createMediaUrlSigner } from '../src/server/security/media-url-signer.ts';
import { createLocalStorage } from '../src/server/storage/local-storage.ts';
import {
  freePort,
  nginxAvailable,
  renderSiteConfig,
  startNginx,
  writeMediaKeyInclude,
  type RunningNginx,
} from '../tests/helpers/nginx.ts';
import { median, row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { httpLoad, loadClient, type LoadResult } from './http-load.ts';

const FILE_SIZE = 20 * 1024 * 1024;
const RANGE_BYTES = 64 * 1024;
// Random offsets, mostly not page-aligned, as a player's seeks are: an aligned offset hides
// a stall nginx has with Debian's `tcp_nopush on` (~40 ms per range, canto.conf says why).
const RANGE_OFFSETS = Array.from({ length: 256 }, () =>
  crypto.randomInt(0, FILE_SIZE - RANGE_BYTES),
);
const rangeOf = (offset: number) => `bytes=${offset}-${offset + RANGE_BYTES - 1}`;
const CONNECTIONS = 8;
const SECONDS = 4;
const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';

type Target = 'nginx' | 'direct' | 'offloaded';
type Measure = LoadResult;

export async function streamingBench(
  options: { rounds?: number; log?: Log } = {},
): Promise<BenchRow[]> {
  // Five short rounds: the median shrugs off a burst of other load on a shared machine.
  const rounds = options.rounds ?? 5;
  const log = options.log ?? (() => {});
  const names = {
    rangeDirect: 'media 64 KB Range, direct Node (req/s)',
    fileDirect: 'media whole file, direct Node (GB/s)',
    rangeOffloaded: 'media 64 KB Range, nginx offload (req/s)',
    fileOffloaded: 'media whole file, nginx offload (GB/s)',
  };
  if (!nginxAvailable()) {
    return Object.values(names).map((n) => unavailable(n, 'nginx is not installed'));
  }
  const client = loadClient();
  const workers = Number(process.env.BENCH_NGINX_WORKERS ?? 1) || 'auto';

  // nginx's workers run as nobody when the bench runs as root: keep the tree readable.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-stream-'));
  fs.chmodSync(root, 0o755);
  const mediaDir = path.join(root, 'media');
  const key = `${crypto.randomUUID()}.mp3`;
  const file = path.join(mediaDir, 'music', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, crypto.randomBytes(FILE_SIZE));

  const running: Array<() => Promise<void>> = [];
  try {
    log(`starting Canto twice (direct, x-accel) and nginx (${workers} worker(s))…`);
    const direct = await startCanto(path.join(root, 'direct'), mediaDir, 'none');
    running.push(direct.close);
    const offload = await startCanto(path.join(root, 'offload'), mediaDir, 'x-accel');
    running.push(offload.close);

    const [staticPort, stockPort, sitePort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const nginx: RunningNginx = await startNginx({
      dir: path.join(root, 'nginx'),
      ports: [staticPort, stockPort, sitePort],
      workers,
      // The baseline sets tcp_nopush off as the site config does; the stock server keeps
      // Debian's default (tcp_nopush on) to show the stall the site config avoids.
      http: `
  server {
    listen 127.0.0.1:${staticPort};
    root ${mediaDir};
    tcp_nopush off;
  }
  server {
    listen 127.0.0.1:${stockPort};
    root ${mediaDir};
  }
${renderSiteConfig({
  CANTO_LISTEN: `127.0.0.1:${sitePort}`,
  CANTO_SERVER_NAME: 'localhost',
  CANTO_UPSTREAM: `127.0.0.1:${offload.port}`,
  CANTO_WEB_DIR: path.join(root, 'web'),
  CANTO_MEDIA_DIR: mediaDir,
  CANTO_MEDIA_KEY_FILE: writeMediaKeyInclude(path.join(root, 'nginx-key.conf'), SECRET_KEY),
})}`,
    });
    running.push(nginx.stop);

    const signed = createMediaUrlSigner({
      secretKey: SECRET_KEY,
      clock: { now: () => new Date() },
    }).sign(`/media/music/${key}`);
    const urls: Record<Target, string> = {
      nginx: `http://127.0.0.1:${staticPort}/music/${key}`,
      direct: `http://127.0.0.1:${direct.port}${signed}`,
      offloaded: `http://127.0.0.1:${sitePort}${signed}`,
    };

    // Same bytes from all three before anything is timed; a bare path is refused.
    const expected = fs
      .readFileSync(file)
      .subarray(RANGE_OFFSETS[0]!, RANGE_OFFSETS[0]! + RANGE_BYTES);
    for (const [name, url] of Object.entries(urls)) {
      const part = await fetch(url, { headers: { range: rangeOf(RANGE_OFFSETS[0]!) } });
      const body = Buffer.from(await part.arrayBuffer());
      if (part.status !== 206 || !body.equals(expected))
        throw new Error(`${name} answered ${part.status} with ${body.length} other bytes`);
      const whole = await fetch(url);
      const size = (await whole.arrayBuffer()).byteLength;
      if (whole.status !== 200 || size !== FILE_SIZE)
        throw new Error(`${name} answered ${whole.status} with ${size} bytes for the file`);
    }
    const bare = await fetch(urls.offloaded.split('?')[0]!);
    if (bare.status !== 403) throw new Error(`a bare media path got ${bare.status} via nginx`);
    await bare.arrayBuffer();

    log(`client: ${client}, ${CONNECTIONS} connections, ${SECONDS} s per measurement`);
    if (client === 'autocannon') {
      // Measured here: ~1.5k 64 KB responses/s and ~0.05 GB/s, against wrk's ~16k and ~1.7 GB/s.
      log('  autocannon parses bodies in JS and is the bottleneck here: apt-get install wrk');
    }
    const rangeHeaders = RANGE_OFFSETS.map(rangeOf);
    const measure = (url: string, range: boolean) =>
      httpLoad(url, {
        client,
        connections: CONNECTIONS,
        seconds: SECONDS,
        ranges: range ? rangeHeaders : undefined,
      });
    // Warm-up: page cache, JIT, nginx's upstream keepalive.
    for (const url of Object.values(urls)) await measure(url, true);
    const stock = await measure(`http://127.0.0.1:${stockPort}/music/${key}`, true);
    log(
      `  for comparison, nginx with Debian's tcp_nopush on: ${Math.round(stock.reqPerSec)} ` +
        `64 KB Range req/s (random offsets)`,
    );

    // Server CPU per request: nginx's workers plus this process, i.e. both Cantos (and
    // autocannon's worker threads when it is the client; wrk is a process of its own).
    const cpuPerRequest: Record<Target, number[]> = { nginx: [], direct: [], offloaded: [] };
    const ranges = await rotate(
      rounds,
      async (t) => {
        const nginxBefore = nginx.workerCpuSeconds();
        const before = process.cpuUsage();
        const m = await measure(urls[t], true);
        const canto = process.cpuUsage(before);
        const seconds = nginx.workerCpuSeconds() - nginxBefore + (canto.user + canto.system) / 1e6;
        cpuPerRequest[t].push((seconds * 1e6) / m.requests);
        return m;
      },
      (m) => m.reqPerSec,
    );
    log(`  64 KB Range req/s: ${fmtRounds(ranges)}`);
    log(
      `  server CPU µs per 64 KB Range request (median): ${Object.entries(cpuPerRequest)
        .map(([t, xs]) => `${t} ${median(xs).toFixed(1)}`)
        .join(', ')}${client === 'wrk' ? '' : ' (includes autocannon)'}`,
    );
    const files = await rotate(
      rounds,
      (t) => measure(urls[t], false),
      (m) => m.bytesPerSec / 1e9,
    );
    log(`  whole file GB/s: ${fmtRounds(files)}`);

    const med = (xs: number[]) => median(xs);
    const base = `nginx static, ${workers} worker(s), ${client} -c${CONNECTIONS}`;
    const target = (ratio: number, min: number) => ({ text: `≥ ${min}`, met: ratio >= min });
    const make = (name: string, t: Target, data: Record<Target, number[]>, min: number) => {
      const r = row(name, med(data[t]), med(data.nginx), 'higher', { baselineName: base });
      return { ...r, target: target(r.ratio, min) };
    };
    return [
      make(names.rangeDirect, 'direct', ranges, 0.5),
      make(names.fileDirect, 'direct', files, 0.5),
      make(names.rangeOffloaded, 'offloaded', ranges, 0.9),
      make(names.fileOffloaded, 'offloaded', files, 0.9),
    ].map((r, i) => ({ ...r, unit: i % 2 === 0 ? 'req/s' : 'GB/s' }));
  } finally {
    for (const stop of running.reverse()) await stop().catch(() => {});
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** `rounds` rounds over the three targets, the order rotating so drift hits each alike. */
async function rotate(
  rounds: number,
  run: (t: Target) => Promise<Measure>,
  value: (m: Measure) => number,
): Promise<Record<Target, number[]>> {
  const order: Target[] = ['nginx', 'direct', 'offloaded'];
  const out: Record<Target, number[]> = { nginx: [], direct: [], offloaded: [] };
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < order.length; j++) {
      const t = order[(i + j) % order.length]!;
      out[t].push(value(await run(t)));
    }
  }
  return out;
}

const fmtRounds = (data: Record<Target, number[]>) =>
  Object.entries(data)
    .map(([t, xs]) => `${t} ${xs.map((x) => (x >= 100 ? Math.round(x) : x.toFixed(2))).join('/')}`)
    .join(', ');

async function startCanto(
  dataDir: string,
  mediaDir: string,
  offload: 'none' | 'x-accel',
): Promise<{ port: number; close(): Promise<void> }> {
  const env = parseEnv({
    DATA_DIR: dataDir,
    SECRET_KEY,
    LOG_LEVEL: 'silent',
    DEMO: '0',
    PORT: '0',
    MEDIA_OFFLOAD: offload,
  });
  const database: Database = await openDatabase({ dataDir });
  await database.migrate();
  // The shared media directory, with the memory for hot files that createStorage would give.
  const storage = createLocalStorage(mediaDir, {
    memoryCacheBytes: env.mediaMemoryCacheMb * 1024 * 1024,
  });
  const { app } = await buildApp({ env, database, storage, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: (app.server.address() as { port: number }).port,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await streamingBench({ log: (line) => console.log(line) });
  console.table(rows.map(({ target, ...r }) => ({ ...r, target: target?.text, met: target?.met })));
  process.exit(0);
}
