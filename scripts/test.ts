/**
 * `npm test`: every test — unit and integration (PGlite, and PostgreSQL when reachable),
 * then the browser journeys against a production build. Prints one closing line
 * "tests: N passed, N failed" summing both runners.
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

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

// 1. Vitest: unit + integration.
const vitestReport = path.join(reports, 'vitest.json');
fs.rmSync(vitestReport, { force: true });
const vitestStatus = run(bin('vitest'), [
  'run',
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

// 2. Browser journeys.
const browser = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(browser)) {
  if (process.env.CANTO_REQUIRE_BROWSER === '1') {
    console.error(`Chromium not found at ${browser} (CANTO_REQUIRE_BROWSER=1)`);
    failed += 1;
    exitCode = 1;
  } else {
    console.warn(`Skipping browser journeys: no Chromium at ${browser} (apt-get install chromium)`);
  }
} else if (process.env.CANTO_SKIP_E2E !== '1') {
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
