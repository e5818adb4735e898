/**
 * `npm test`: every tier — unit, integration (PGlite, and PostgreSQL when reachable), then
 * the browser journeys against a production build. `tsx scripts/test.ts <tier> …` runs the
 * named tiers only (`npm run test:unit`, `test:integration`, `test:e2e`). Each run closes
 * with one line "tests: N passed, N failed, N skipped" summing the runners.
 *
 * CANTO_REQUIRE_POSTGRES=1 / CANTO_REQUIRE_BROWSER=1 (set by .ci/run) turn a missing
 * database or browser into a failure instead of a skip.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const bin = (name: string) => path.resolve('node_modules/.bin', name);
const reports = path.resolve('.tmp/reports');
fs.mkdirSync(reports, { recursive: true });

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const TIERS = ['unit', 'integration', 'e2e'] as const;
type Tier = (typeof TIERS)[number];
const asked = process.argv.slice(2);
const unknown = asked.filter((t) => !(TIERS as readonly string[]).includes(t));
if (unknown.length) {
  console.error(`Unknown tier: ${unknown.join(', ')}. Tiers: ${TIERS.join(', ')}`);
  process.exit(2);
}
const tiers = new Set<Tier>(asked.length ? (asked as Tier[]) : TIERS);

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

// 1. Vitest: the unit and integration projects asked for (vitest.config.ts), in one run.
const projects = (['unit', 'integration'] as const).filter((t) => tiers.has(t));
if (projects.length) {
  const vitestReport = path.join(reports, 'vitest.json');
  fs.rmSync(vitestReport, { force: true });
  const vitestStatus = run(bin('vitest'), [
    'run',
    ...projects.flatMap((name) => ['--project', name]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]);
  const v = readJson(vitestReport);
  if (v) {
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  }
  if (vitestStatus !== 0) {
    exitCode = 1;
    if (!v || (v.numFailedTests ?? 0) === 0) failed += 1; // a crash outside any test still fails
  }
}

// 2. Browser journeys.
const browser = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (tiers.has('e2e') && !fs.existsSync(browser)) {
  if (process.env.CANTO_REQUIRE_BROWSER === '1') {
    console.error(`Chromium not found at ${browser} (CANTO_REQUIRE_BROWSER=1)`);
    failed += 1;
    exitCode = 1;
  } else {
    console.warn(`Skipping browser journeys: no Chromium at ${browser} (apt-get install chromium)`);
  }
} else if (tiers.has('e2e') && process.env.CANTO_SKIP_E2E !== '1') {
  const pwReport = path.join(reports, 'playwright.json');
  fs.rmSync(pwReport, { force: true });
  {
    // playwright.config.ts's webServer builds the web app and starts a fresh server.
    const status = run(bin('playwright'), ['test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwReport,
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    });
    const p = readJson(pwReport);
    const stats = p?.stats;
    if (stats) {
      passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
      failed += stats.unexpected ?? 0;
      skipped += stats.skipped ?? 0;
    }
    if (status !== 0) {
      exitCode = 1;
      if (!stats || (stats.unexpected ?? 0) === 0) failed += 1;
    }
  }
}

console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
