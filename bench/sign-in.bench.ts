/**
 * Sign-in bench: POST /api/auth/sign-in requests/s (autocannon, 127.0.0.1) beside a bare
 * GET /api/health on the same listening app, as a ratio. Sign-in is argon2id-bound by
 * design (~67 ms per hash here), so the ratio is small; it tracks how much the route adds.
 *
 * Sign-in is rate-limited per IP (30 per 5 min) and per IP+email. The bench app's clock
 * jumps 6 minutes at every reading, so each attempt lands in a fresh window: the limiter's
 * database work still runs on every request, it just never says no. Everything else is the
 * real path (validation, hash check, session and token issue, cookies).
 *
 * Run alone: npx tsx bench/sign-in.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { buildApp, type App } from '../src/server/app.ts';
import type { Clock } from '../src/core/clock.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';

const STEP_MS = 6 * 60_000;
const jumpingClock = (): Clock => {
  let t = Date.now();
  return { now: () => new Date((t += STEP_MS)) };
};

export async function signInBench(
  options: { log?: Log; seconds?: number } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const seconds = options.seconds ?? 10;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-signin-'));
  let database: Database | undefined;
  let app: App | undefined;
  try {
    const env = parseEnv({
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    });
    database = await openDatabase({ dataDir });
    await database.migrate();
    ({ app } = await buildApp({ env, database, clock: jumpingClock(), logger: false }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    const credentials = { email: 'bench@example.test', password: 'bench-password' };
    const signUp = await fetch(`${base}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...credentials, display_name: 'Bench User', is_artist: false }),
    });
    if (signUp.status === 404) return [unavailable('sign-in req/s', 'auth routes not mounted')];
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
    const check = await fetch(`${base}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    if (check.status !== 200)
      throw new Error(`sign-in answered ${check.status}: ${await check.text()}`);

    const health = await autocannon({
      url: `${base}/api/health`,
      connections: 10,
      duration: Math.max(3, seconds / 2),
    });
    const signIn = await autocannon({
      url: `${base}/api/auth/sign-in`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
      // Two cores and a memory-hard hash: more connections only queue.
      connections: 4,
      duration: seconds,
    });
    if (signIn.non2xx > 0 || signIn.errors > 0) {
      throw new Error(
        `sign-in had ${signIn.non2xx} non-2xx answers and ${signIn.errors} errors under load`,
      );
    }
    log(
      `  health ${Math.round(health.requests.average)} req/s, sign-in ${signIn.requests.average.toFixed(1)} req/s (p50 ${signIn.latency.p50} ms)`,
    );
    return [
      row(
        'sign-in req/s (4 connections)',
        signIn.requests.average,
        health.requests.average,
        'higher',
        {
          unit: 'req/s',
          baselineName: 'GET /api/health, same app',
        },
      ),
    ];
  } finally {
    await app?.close();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await withTimeout(5 * 60_000, 'sign-in bench', signInBench({ log: console.log })));
}
