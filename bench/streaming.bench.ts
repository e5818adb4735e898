/**
 * Streaming bench: Canto's media route (the whole app, listening on 127.0.0.1) against a
 * plain node:http + fs.createReadStream file server with Range, serving the same ~20 MB
 * file in the same run. Rounds alternate between the two servers so drift hits both.
 *
 * Rows: { name, value, baseline, ratio } where ratio ≥ 1 means Canto is at least as good
 * (value/baseline for rates, baseline/value for times). Target: ratio ≥ 0.8.
 *
 * Run alone: npx tsx bench/streaming.bench.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';

export type BenchRow = { name: string; value: number; baseline: number; ratio: number };

const FILE_SIZE = 20 * 1024 * 1024;
const RANGE = { start: 10 * 1024 * 1024, end: 10 * 1024 * 1024 + 64 * 1024 - 1 };

type Target = { url: string; close(): Promise<void> };

export async function streamingBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 3;
  const log = options.log ?? (() => {});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-stream-'));
  const key = `${crypto.randomUUID()}.mp3`;
  const file = path.join(dataDir, 'media', 'music', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, crypto.randomBytes(FILE_SIZE));

  const targets: Target[] = [];
  try {
    log('starting Canto and the baseline server…');
    const canto = await startCanto(dataDir, key);
    targets.push(canto);
    const baseline = await startBaseline(file);
    targets.push(baseline);
    const pair = { canto, baseline };

    // Sanity: both serve the same bytes for the same range before anything is timed.
    for (const t of [canto, baseline]) {
      const res = await request(t.url, `bytes=${RANGE.start}-${RANGE.end}`);
      if (res.status !== 206 || res.bytes !== RANGE.end - RANGE.start + 1) {
        throw new Error(`${t.url} answered ${res.status} with ${res.bytes} bytes`);
      }
    }
    await throughput(canto.url, 1, 2);
    await throughput(baseline.url, 1, 2);

    const mbps = await alternate(
      pair,
      rounds,
      (t) => throughput(t.url, 4, 8),
      log,
      'full-file MB/s',
    );
    const floor = await pairedFirstByteMs(
      { canto: { ...canto, url: new URL('/api/health', canto.url).href }, baseline },
      300,
    );
    log(
      `  app floor: /api/health TTFB ${round(floor.canto)} ms vs baseline range ${round(floor.baseline)} ms`,
    );
    const ttfb = await pairedFirstByteMs(pair, 300 * rounds);
    log(
      `  range TTFB ms (median of ${300 * rounds} paired requests): canto ${round(ttfb.canto)}, baseline ${round(ttfb.baseline)}`,
    );
    const rps = await alternate(
      pair,
      rounds,
      (t) => rangeRequestsPerSecond(t.url),
      log,
      '64 KB ranges req/s',
    );

    return [
      row('media full-file throughput, 4 connections (MB/s)', mbps.canto, mbps.baseline, 'higher'),
      row('media Range time to first byte, median (ms)', ttfb.canto, ttfb.baseline, 'lower'),
      row('media 64 KB Range requests, 10 connections (req/s)', rps.canto, rps.baseline, 'higher'),
    ];
  } finally {
    for (const t of targets.reverse()) await t.close().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function row(name: string, value: number, baseline: number, better: 'higher' | 'lower'): BenchRow {
  const ratio = better === 'higher' ? value / baseline : baseline / value;
  return { name, value: round(value), baseline: round(baseline), ratio: round(ratio) };
}

const round = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Runs `measure` on both servers in alternating rounds; the median round of each counts. */
async function alternate(
  pair: { canto: Target; baseline: Target },
  rounds: number,
  measure: (t: Target) => Promise<number>,
  log: (line: string) => void,
  label: string,
) {
  const canto: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const first = i % 2 === 0;
    if (first) baseline.push(await measure(pair.baseline));
    canto.push(await measure(pair.canto));
    if (!first) baseline.push(await measure(pair.baseline));
    log(
      `  ${label} round ${i + 1}: canto ${round(canto.at(-1)!)}, baseline ${round(baseline.at(-1)!)}`,
    );
  }
  return { canto: median(canto), baseline: median(baseline) };
}

async function startCanto(dataDir: string, key: string): Promise<Target> {
  const env = parseEnv({
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    LOG_LEVEL: 'silent',
    DEMO: '0',
    PORT: '0',
  });
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const app = await buildApp({ env, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/media/music/${key}`,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** What a plain static server does: stat, one Range, createReadStream. No framework. */
async function startBaseline(file: string): Promise<Target> {
  const server = http.createServer((req, res) => {
    fs.stat(file, (error, stat) => {
      if (error) {
        res.writeHead(404).end();
        return;
      }
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'audio/mpeg',
        'accept-ranges': 'bytes',
        etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
        'last-modified': stat.mtime.toUTCString(),
      };
      const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
      if (m && (m[1] || m[2])) {
        const start = m[1] ? Number(m[1]) : Math.max(0, stat.size - Number(m[2]));
        const end = m[1] && m[2] ? Math.min(Number(m[2]), stat.size - 1) : stat.size - 1;
        if (start >= stat.size) {
          res.writeHead(416, { 'content-range': `bytes */${stat.size}` }).end();
          return;
        }
        res.writeHead(206, {
          ...headers,
          'content-range': `bytes ${start}-${end}/${stat.size}`,
          'content-length': end - start + 1,
        });
        fs.createReadStream(file, { start, end }).pipe(res);
        return;
      }
      res.writeHead(200, { ...headers, 'content-length': stat.size });
      fs.createReadStream(file).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/song.mp3`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function request(url: string, range?: string) {
  return new Promise<{ status: number; bytes: number; firstByteMs: number; totalMs: number }>(
    (resolve, reject) => {
      const started = performance.now();
      let firstByteMs = -1;
      let bytes = 0;
      const req = http.get(url, { agent, headers: range ? { range } : {} }, (res) => {
        res.on('data', (chunk: Buffer) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            firstByteMs,
            totalMs: performance.now() - started,
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
    },
  );
}

/** MB/s over `perWorker` whole-file downloads on each of `connections` parallel loops. */
async function throughput(url: string, connections: number, perWorker: number) {
  const started = performance.now();
  let bytes = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = 0; i < perWorker; i++) {
        const res = await request(url);
        if (res.status !== 200 || res.bytes !== FILE_SIZE)
          throw new Error(`full GET gave ${res.status}`);
        bytes += res.bytes;
      }
    }),
  );
  return bytes / (1024 * 1024) / ((performance.now() - started) / 1000);
}

/**
 * Median time to the first body byte of a 64 KB Range request, one request at a time,
 * alternating servers request by request so background load falls on both alike.
 */
async function pairedFirstByteMs(pair: { canto: Target; baseline: Target }, count: number) {
  const times = { canto: [] as number[], baseline: [] as number[] };
  const range = `bytes=${RANGE.start}-${RANGE.end}`;
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? (['canto', 'baseline'] as const) : (['baseline', 'canto'] as const);
    for (const name of order) {
      const res = await request(pair[name].url, range);
      if (res.status !== 206 && res.status !== 200) throw new Error(`range GET gave ${res.status}`);
      times[name].push(res.firstByteMs);
    }
  }
  return { canto: median(times.canto), baseline: median(times.baseline) };
}

async function rangeRequestsPerSecond(url: string) {
  const result = await autocannon({
    url,
    connections: 10,
    duration: 3,
    headers: { range: `bytes=${RANGE.start}-${RANGE.end}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await streamingBench({ log: (line) => console.log(line) });
  console.table(rows);
  const worst = Math.min(...rows.map((r) => r.ratio));
  console.log(worst >= 0.8 ? `ok: every ratio ≥ 0.8` : `below target: worst ratio ${worst}`);
  agent.destroy();
}
