/**
 * Live socket flood bench: how much one client flooding its live socket
 * (GET /api/me/notifications/live) slows everyone else, measured as `GET /api/health` p99
 * from 4 closed-loop clients for 5 s, on the production server (`npm start`'s command,
 * PGlite, a throwaway DATA_DIR):
 *   - idle: nobody floods (the baseline of both rows);
 *   - flood, no budget: LIVE_MESSAGES_PER_SECOND=0, the socket is answered as fast as it sends;
 *   - flood, budget: the default (20 a second, burst 50); the socket is closed with 1008 and the
 *     flooder reconnects at once and floods again, an attacker's best under the budget.
 * The flooder is a worker thread (its own event loop), sending pings as fast as `ws` drains.
 *
 * Run alone: npx tsx bench/live-flood.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { NOTIFICATIONS_LIVE_PATH } from '../src/contracts/notifications.contract.ts';
import { row, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { ensureProductionBuild, signIn, startServer } from './server-process.ts';

const CLIENTS = 4;
const DURATION_MS = 5_000;
const ADMIN = { email: 'flood-bench@bench.local', password: 'flood-bench-password' };

/** The flooder: reconnects whenever closed, keeps up to 1 MB queued, counts pongs and closes. */
const FLOODER = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.ws);
const ping = JSON.stringify({ type: 'ping' });
let pongs = 0, sent = 0, closes = 0, stopped = false, socket;
function open() {
  socket = new WebSocket(workerData.url, { headers: workerData.headers });
  socket.on('message', () => pongs++);
  socket.on('error', () => {});
  socket.on('close', () => { closes++; if (!stopped) setImmediate(open); });
  socket.on('open', pump);
}
function pump() {
  const s = socket;
  if (stopped || s.readyState !== 1) return;
  // A batch per turn, so the worker always comes back to its events (a close, the stop).
  for (let i = 0; i < 2000 && s.bufferedAmount < 1 << 20; i++) { s.send(ping); sent++; }
  setImmediate(pump);
}
parentPort.on('message', () => {
  stopped = true;
  socket.terminate();
  parentPort.postMessage({ pongs, sent, closes });
});
open();
`;

type FloodCount = { pongs: number; sent: number; closes: number };

function startFlooder(url: string, token: string) {
  const worker = new Worker(FLOODER, {
    eval: true,
    workerData: {
      ws: path.resolve('node_modules/ws'),
      url: `${url.replace('http:', 'ws:')}${NOTIFICATIONS_LIVE_PATH}`,
      headers: { authorization: `Bearer ${token}`, origin: url },
    },
  });
  return {
    async stop(): Promise<FloodCount> {
      const counted = new Promise<FloodCount>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const count = await counted;
      await worker.terminate();
      return count;
    },
  };
}

/** `GET /api/health` latencies (ms) from `CLIENTS` closed-loop clients for `DURATION_MS`. */
async function healthLatencies(url: string): Promise<number[]> {
  const until = performance.now() + DURATION_MS;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(`${url}/api/health`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

const p99 = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!;
};

async function measure(
  budget: boolean,
  log: Log,
): Promise<{ idle: number; flood: number; count: FloodCount }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-flood-'));
  const server = await startServer('canto', (port) => ({
    DATA_DIR: dataDir,
    DEMO: '0',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...(budget ? {} : { LIVE_MESSAGES_PER_SECOND: '0' }),
  }));
  try {
    const token = await signIn(server.url, ADMIN.email, ADMIN.password);
    await healthLatencies(server.url); // warm-up
    const idle = p99(await healthLatencies(server.url));
    const flooder = startFlooder(server.url, token);
    await new Promise((r) => setTimeout(r, 500));
    const flood = p99(await healthLatencies(server.url));
    const count = await flooder.stop();
    log(
      `  ${budget ? 'budget' : 'no budget'}: health p99 idle ${idle.toFixed(1)} ms, flooded ${flood.toFixed(1)} ms; ` +
        `flooder sent ${count.sent}, answered ${count.pongs}, closed ${count.closes}×`,
    );
    return { idle, flood, count };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function liveFloodBench({ log = () => {} }: { log?: Log } = {}): Promise<BenchRow[]> {
  ensureProductionBuild();
  const off = await measure(false, log);
  const on = await measure(true, log);
  const idle = Math.min(off.idle, on.idle);
  return [
    row('/api/health p99 while a live socket floods, no budget', off.flood, idle, 'lower', {
      unit: 'ms',
      baselineName: 'no flood',
    }),
    row('/api/health p99 while a live socket floods, budget 20/s', on.flood, idle, 'lower', {
      unit: 'ms',
      baselineName: 'no flood',
    }),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(
    await withTimeout(15 * 60_000, 'live flood bench', liveFloodBench({ log: console.log })),
  );
}
