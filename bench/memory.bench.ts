/**
 * Memory bench: the RSS of the production server process (spawned the way `npm start` runs
 * it, see server-process.ts) —
 *   - idle on the embedded database: a second start on a DATA_DIR with demo content, left
 *     alone for IDLE_MS after /api/health first answers;
 *   - idle on a PostgreSQL server: the same, on a throwaway database `canto_bench_<rand>`
 *     (BENCH_DATABASE_URL or TEST_DATABASE_URL names the server; default
 *     postgres://postgres@127.0.0.1:5432/test), dropped afterwards;
 *   - the peak, sampled every 10 ms, while an artist uploads a 100 MB WAV through
 *     POST /api/songs (embedded database, right after the idle figure).
 * Each beside a bare Fastify server spawned the same way in the same run: its idle RSS, and
 * its peak while it streams the same 100 MB request to a file.
 *
 * Run alone: npx tsx bench/memory.bench.ts
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import {
  ensureProductionBuild,
  idleRssMb,
  peakRssDuring,
  signIn,
  startServer,
  uploadSong,
} from './server-process.ts';

const IDLE_MS = 10_000;
const UPLOAD_BYTES = 100 * 1024 * 1024 - 4096; // just under the 100 MB limit
const round = (n: number) => Math.round(n);
const adminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

async function admin(text: string) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function memoryBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  ensureProductionBuild();
  const rows: BenchRow[] = [];
  const extra = { unit: 'MB', baselineName: 'bare Fastify, same node options' };

  const bare = await startServer('bare fastify');
  let bareIdle: number;
  let barePeak: number;
  try {
    bareIdle = await idleRssMb(bare, IDLE_MS);
    barePeak = await peakRssDuring(bare, () => uploadSong(bare.url, undefined, UPLOAD_BYTES));
  } finally {
    await bare.stop();
  }
  log(
    `  bare Fastify: idle ${round(bareIdle)} MB, peak during a 100 MB upload ${round(barePeak)} MB`,
  );

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-memory-'));
  try {
    const env = { DATA_DIR: path.join(work, 'data'), DEMO: '1', DATABASE_URL: '' };
    await (await startServer('canto', env)).stop(); // first start: demo content
    const canto = await startServer('canto', env);
    try {
      const idle = await idleRssMb(canto, IDLE_MS);
      const token = await signIn(canto.url, 'nova@canto.local', 'canto-demo');
      const started = Date.now();
      const peak = await peakRssDuring(canto, () => uploadSong(canto.url, token, UPLOAD_BYTES));
      log(
        `  embedded: idle ${round(idle)} MB; 100 MB upload in ${((Date.now() - started) / 1000).toFixed(1)} s, peak ${round(peak)} MB`,
      );
      rows.push(
        row(
          `idle RSS, embedded database (${IDLE_MS / 1000} s after start)`,
          idle,
          bareIdle,
          'lower',
          {
            ...extra,
            target: { text: '< 250 MB', met: idle < 250 },
          },
        ),
        row('peak RSS during a 100 MB upload, embedded database', peak, barePeak, 'lower', extra),
      );
    } finally {
      await canto.stop();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  const name = `canto_bench_${crypto.randomBytes(5).toString('hex')}`;
  try {
    await admin(`create database "${name}"`);
  } catch (error) {
    log(`  postgres: not reachable at ${adminUrl} (${(error as Error).message}); skipped`);
    rows.push(unavailable('idle RSS, PostgreSQL', 'PostgreSQL not reachable'));
    return rows;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-memory-pg-'));
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), DEMO: '0' };
    await (await startServer('canto', env)).stop(); // first start: migrations
    const canto = await startServer('canto', env);
    try {
      const idle = await idleRssMb(canto, IDLE_MS);
      log(`  postgres: idle ${round(idle)} MB`);
      rows.push(
        row(`idle RSS, PostgreSQL (${IDLE_MS / 1000} s after start)`, idle, bareIdle, 'lower', {
          ...extra,
          target: { text: '< 120 MB', met: idle < 120 },
        }),
      );
    } finally {
      await canto.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists "${name}" with (force)`).catch(() => {});
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await withTimeout(15 * 60_000, 'memory bench', memoryBench({ log: console.log }));
  console.table(rows);
}
