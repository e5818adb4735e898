/**
 * Start-up bench: time from spawning `tsx src/server/main.ts` (fresh DATA_DIR, DEMO=1, a
 * random port on 127.0.0.1) to GET /api/health answering 200 — the first start (migrations
 * and demo seeding included) and a second start on the same DATA_DIR. The baseline is the
 * floor of the same launcher: `tsx` starting a bare node:http server that answers the same
 * path, spawned the same way in the same run.
 *
 * Run alone: npx tsx bench/startup.bench.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  freePort,
  median,
  row,
  waitFor200,
  withTimeout,
  type BenchRow,
  type Log,
} from './bench-kit.ts';

const TSX = path.resolve('node_modules/.bin/tsx');
const START_DEADLINE_MS = 180_000;

type Started = { ms: number; stop(): Promise<void> };

async function timeToHealth(script: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const started = Date.now();
  const child: ChildProcess = spawn(TSX, [script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4000)));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  try {
    const ms = await waitFor200(
      `http://127.0.0.1:${port}/api/health`,
      started,
      START_DEADLINE_MS,
      () => child.exitCode === null,
    );
    return { ms, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
  }
}

export async function startupBench(
  options: { log?: Log; rounds?: number } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const rounds = options.rounds ?? 3;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-startup-'));
  try {
    if (!fs.existsSync(path.resolve('dist/web/index.html'))) {
      throw new Error(
        'dist/web is not built (npm run build); main.ts would build it and skew the figure',
      );
    }
    const bare = path.join(work, 'bare-server.ts');
    fs.writeFileSync(
      bare,
      `import http from 'node:http';
http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"status":"ok"}'); })
  .listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`,
    );

    const baselines: number[] = [];
    const firsts: number[] = [];
    const seconds: number[] = [];
    // Rounds alternate baseline and Canto, so load from elsewhere hits both alike.
    for (let r = 0; r < rounds; r++) {
      const b = await timeToHealth(bare, {});
      baselines.push(b.ms);
      await b.stop();

      const dataDir = path.join(work, `data-${r}`);
      const env = {
        DATA_DIR: dataDir,
        DEMO: '1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
      };
      const first = await timeToHealth(path.resolve('src/server/main.ts'), env);
      firsts.push(first.ms);
      await first.stop();
      const second = await timeToHealth(path.resolve('src/server/main.ts'), env);
      seconds.push(second.ms);
      await second.stop();
      log(
        `  round ${r + 1}: bare ${b.ms} ms, first start ${first.ms} ms, second start ${second.ms} ms`,
      );
    }
    const baseline = median(baselines);
    const extra = { unit: 'ms', baselineName: 'tsx + bare node:http' };
    return [
      row(
        'start-up to health: fresh DATA_DIR, DEMO=1 (median)',
        median(firsts),
        baseline,
        'lower',
        extra,
      ),
      row(
        'start-up to health: second start, same DATA_DIR (median)',
        median(seconds),
        baseline,
        'lower',
        extra,
      ),
    ];
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await withTimeout(15 * 60_000, 'startup bench', startupBench({ log: console.log }));
  console.table(rows);
}
