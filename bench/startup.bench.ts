/**
 * Start-up bench: time from spawning the production server the way `npm start` runs it
 * (node with package.json's V8 options, scripts/start.mjs, the compiled dist/server; a fresh
 * DATA_DIR, DEMO=1, a random port on 127.0.0.1) to GET /api/health answering 200 — the first
 * start (demo content seeded) and a second start on the same DATA_DIR. The baseline is a bare
 * Fastify server answering the same path, spawned the same way in the same run. The build
 * is made beforehand, so neither figure includes it.
 *
 * Run alone: npx tsx bench/startup.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, row, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { ensureProductionBuild, startServer } from './server-process.ts';

export async function startupBench(
  options: { log?: Log; rounds?: number } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const rounds = options.rounds ?? 3;
  ensureProductionBuild();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-startup-'));
  try {
    const baselines: number[] = [];
    const firsts: number[] = [];
    const seconds: number[] = [];
    // Rounds alternate baseline and Canto, so load from elsewhere hits both alike.
    for (let r = 0; r < rounds; r++) {
      const bare = await startServer('bare fastify');
      baselines.push(bare.startMs);
      await bare.stop();

      const env = {
        DATA_DIR: path.join(work, `data-${r}`),
        DEMO: '1',
        DATABASE_URL: '',
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
      };
      const first = await startServer('canto', env);
      firsts.push(first.startMs);
      await first.stop();
      const second = await startServer('canto', env);
      seconds.push(second.startMs);
      await second.stop();
      log(
        `  round ${r + 1}: bare Fastify ${bare.startMs} ms, first start ${first.startMs} ms, second start ${second.startMs} ms`,
      );
    }
    const baseline = median(baselines);
    const extra = { unit: 'ms', baselineName: 'bare Fastify, same node options' };
    const first = median(firsts);
    const second = median(seconds);
    return [
      row('start-up to health: fresh DATA_DIR, DEMO=1 (median)', first, baseline, 'lower', {
        ...extra,
        target: { text: '< 10 s', met: first < 10_000 },
      }),
      row('start-up to health: second start, same DATA_DIR (median)', second, baseline, 'lower', {
        ...extra,
        target: { text: '< 1.5 s', met: second < 1_500 },
      }),
    ];
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await withTimeout(15 * 60_000, 'startup bench', startupBench({ log: console.log }));
  console.table(rows);
}
