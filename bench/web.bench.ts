/**
 * Web bench: the first load, in a real browser, from a production build (built into a temp
 * directory with a manifest, so dist/web is left alone) served directly by the app.
 *
 *  1. Interactive home of a signed-in listener under emulated 4G (150 ms of latency, 10 Mbit/s,
 *     cache off; Chromium via playwright-core, CDP Network.emulateNetworkConditions): from
 *     navigation to the moment Home shows the listener's name and both song sections have
 *     their answer. Baseline: a static HTML page, loaded the same way in the same run (to its
 *     load event). Median of RUNS loads each, alternating, one fresh browser context per load
 *     (no socket survives from one load to the next). Target: < 1.2 s.
 *  2. Initial JavaScript of / (signed in) and /auth (signed out), KB gzip: the script files the
 *     browser fetched before the screen was ready. Baseline: a one-component React app built
 *     by the same vite in the same run — the floor any React page pays. Target: < 250 KB.
 *  3. The request waterfall of the median home load: when the scripts, /api/auth/session,
 *     /api/subscription and the home data start and end, relative to the document request.
 *  4. Lighthouse performance score of /auth (mobile preset, fresh profile). Baseline: the
 *     static page's score. Target: ≥ 90.
 *
 * The decision and the numbers: docs/decisions/0026-first-load.md.
 * Run alone: npx tsx bench/web.bench.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp, type App } from '../src/server/app.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';

const TARGET_KB = 250;
const TARGET_SCORE = 90;
const TARGET_HOME_MS = 1200;
const RUNS = Number(process.env.WEB_BENCH_RUNS ?? 5);
/** Emulated 4G, as the issue measured it: per-request latency and a shared 10 Mbit/s link. */
const FOUR_G = {
  offline: false,
  latency: 150,
  downloadThroughput: (10 * 1024 * 1024) / 8,
  uploadThroughput: (10 * 1024 * 1024) / 8,
};
const LISTENER = {
  email: 'listener@example.test',
  password: 'bench-password-1',
  display_name: 'Bench Listener',
};
/** Debian chromium, headless, with nothing of its own on the network (playback.bench.ts too). */
export const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const gzipKB = (file: string) =>
  zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${Math.round(n)} ms`;

/** Builds the web app into `outDir` with a manifest (CLI flags: vite.config.ts stays as is). */
function viteBuild(outDir: string) {
  const result = spawnSync(
    path.resolve('node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
    { encoding: 'utf8', timeout: 5 * 60_000 },
  );
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stderr || result.stdout}`);
}

/** The JavaScript files a built page loads before anything runs: its module script and preloads. */
export function htmlScripts(outDir: string, page = 'index.html'): string[] {
  const html = fs.readFileSync(path.join(outDir, page), 'utf8');
  return [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
  ].map((m) => m[1]!);
}

/**
 * The floor any React page pays: a one-component React app built by the same vite and
 * plugin, measured the same way. Built under .tmp/ so `react` resolves from this project.
 */
function reactFloorKB(): number {
  const dir = path.resolve('.tmp', `bench-react-floor-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>',
    );
    fs.writeFileSync(
      path.join(dir, 'main.tsx'),
      "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<h1>Hello</h1>);\n",
    );
    fs.writeFileSync(
      path.join(dir, 'vite.config.mjs'),
      `import react from ${JSON.stringify(pathToFileURL(path.resolve('node_modules/@vitejs/plugin-react/dist/index.js')).href)};\nexport default { root: ${JSON.stringify(dir)}, plugins: [react()], logLevel: 'warn' };\n`,
    );
    const outDir = path.join(dir, 'dist');
    const result = spawnSync(
      path.resolve('node_modules/.bin/vite'),
      ['build', '--config', path.join(dir, 'vite.config.mjs'), '--outDir', outDir, '--emptyOutDir'],
      { encoding: 'utf8', timeout: 5 * 60_000 },
    );
    if (result.status !== 0)
      throw new Error(`vite build of the React floor failed:\n${result.stderr || result.stdout}`);
    return htmlScripts(outDir).reduce((sum, f) => sum + gzipKB(path.join(outDir, f)), 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Lighthouse's performance score and LCP of `url` (mobile preset, simulated slow 4G, fresh profile). */
export async function lighthouse(url: string): Promise<{ score: number; lcpMs: number }> {
  const { default: run } = await import('lighthouse');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-chrome-'));
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    userDataDir,
  });
  try {
    // No config: Lighthouse's default is the mobile preset with simulated slow 4G.
    const result = await run(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const score = result?.lhr.categories.performance?.score;
    const lcpMs = result?.lhr.audits['largest-contentful-paint']?.numericValue;
    if (typeof score !== 'number' || typeof lcpMs !== 'number')
      throw new Error(`Lighthouse gave no performance score or LCP for ${url}`);
    return { score: score * 100, lcpMs };
  } finally {
    await chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** One request of a load, in ms from the document request's start. */
type Hit = { url: string; type: string; start: number; end: number };
type Load = { readyMs: number; hits: Hit[] };

/**
 * Records, from the first byte of the page on, the moment `ready()` first holds (checked on
 * every DOM change), as ms since navigation start.
 */
const readyProbe = (ready: string) => `(() => {
  const check = () => {
    if (window.__benchReady === undefined && (${ready})()) window.__benchReady = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  document.addEventListener('DOMContentLoaded', check);
})();`;

/**
 * Home with the listener's name and both sections answered (not the skeletons). The bench's
 * session is the account's first, so Home says 'Welcome to Canto'; a returning one 'Welcome back'.
 */
const homeReady = `() =>
  /Welcome (back|to Canto), ${LISTENER.display_name}/.test(document.body?.textContent ?? '') &&
  document.querySelector('section[aria-labelledby="recent-tracks"][aria-busy="false"]') &&
  document.querySelector('section[aria-labelledby="popular-tracks"][aria-busy="false"]')`;
/** The sign-in form, ready to type in. */
const authReady = `() => document.querySelector('form input[type="email"]')`;

/**
 * Loads `url` in a fresh context (no cache, no open sockets) under FOUR_G and returns when
 * `ready` held, with every request's timing. Static pages count to their load event.
 */
async function load(
  browser: Browser,
  url: string,
  ready: string | null,
  cookies: Parameters<import('playwright-core').BrowserContext['addCookies']>[0] = [],
): Promise<Load> {
  const context = await browser.newContext();
  try {
    if (cookies.length) await context.addCookies(cookies);
    const page: Page = await context.newPage();
    if (ready) await page.addInitScript(readyProbe(ready));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FOUR_G);
    const requests = new Map<string, { url: string; type: string; start: number; end: number }>();
    cdp.on('Network.requestWillBeSent', (e) => {
      requests.set(e.requestId, {
        url: e.request.url,
        type: e.type ?? '',
        start: e.timestamp,
        end: Number.NaN,
      });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.end = e.timestamp;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.end = e.timestamp;
    });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    let readyMs: number;
    if (ready) {
      await page.waitForFunction(
        () => (window as unknown as { __benchReady?: number }).__benchReady,
        null,
        { timeout: 60_000, polling: 50 },
      );
      readyMs = await page.evaluate(
        () => (window as unknown as { __benchReady: number }).__benchReady,
      );
    } else {
      readyMs = await page.evaluate(
        () =>
          (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
            .loadEventEnd,
      );
    }
    const all = [...requests.values()];
    const t0 = Math.min(...all.map((r) => r.start));
    const hits = all
      .map((r) => ({
        url: r.url.replace(/^https?:\/\/[^/]+/, ''),
        type: r.type,
        start: (r.start - t0) * 1000,
        end: (r.end - t0) * 1000,
      }))
      .sort((a, b) => a.start - b.start);
    return { readyMs, hits };
  } finally {
    await context.close();
  }
}

/** The listener's cookies, as the sign-up answer set them. */
async function signUpListener(base: string) {
  const res = await fetch(`${base}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...LISTENER, is_artist: false }),
  });
  if (!res.ok) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  return res.headers.getSetCookie().map((header) => {
    const [pair, ...attrs] = header.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const cookiePath = attrs.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
    return {
      name: pair!.slice(0, eq),
      value: pair!.slice(eq + 1),
      domain: '127.0.0.1',
      path: cookiePath,
      httpOnly: true,
      sameSite: 'Lax' as const,
    };
  });
}

const isScript = (h: Hit) => h.type === 'Script' || /\.js(\?|$)/.test(h.url);

function waterfall(log: Log, label: string, run: Load) {
  log(`  waterfall of ${label} (ms from the document request; ready at ${ms(run.readyMs)}):`);
  for (const h of run.hits) {
    if (h.url.startsWith('/favicon')) continue;
    log(
      `    ${String(Math.round(h.start)).padStart(5)} → ${String(Math.round(h.end)).padStart(5)}  ${h.url}`,
    );
  }
}

export async function webBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-web-'));
  const outDir = path.join(work, 'web');
  const rows: BenchRow[] = [];
  let database: Database | undefined;
  let app: App | undefined;
  let bare: http.Server | undefined;
  let browser: Browser | undefined;
  try {
    log('  building the web app…');
    viteBuild(outDir);
    const floor = reactFloorKB();

    const dataDir = path.join(work, 'data');
    const env = parseEnv({
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    });
    database = await openDatabase({ dataDir });
    await database.migrate();
    ({ app } = await buildApp({ env, database, logger: false, webDir: outDir }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    bare = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Baseline</title></head><body><h1>Baseline</h1><p>A static page.</p></body></html>',
      );
    });
    await new Promise<void>((resolve) => bare!.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;
    const cookies = await signUpListener(appUrl);

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROME_FLAGS });
    const homes: Load[] = [];
    const statics: Load[] = [];
    const auths: Load[] = [];
    log(`  ${RUNS} loads each of the static page, / signed in and /auth signed out, under 4G…`);
    for (let i = 0; i < RUNS; i++) {
      statics.push(await load(browser, bareUrl, null));
      homes.push(await load(browser, `${appUrl}/`, homeReady, cookies));
      auths.push(await load(browser, `${appUrl}/auth`, authReady));
    }
    const staticMs = median(statics.map((l) => l.readyMs));
    const homeMs = median(homes.map((l) => l.readyMs));
    const authMs = median(auths.map((l) => l.readyMs));
    log(
      `  static ${statics.map((l) => ms(l.readyMs)).join(', ')}; home ${homes.map((l) => ms(l.readyMs)).join(', ')}; auth ${auths.map((l) => ms(l.readyMs)).join(', ')}`,
    );
    const home = homes.find((l) => l.readyMs === homeMs)!;
    waterfall(log, '/ signed in', home);
    rows.push(
      row('interactive home, signed in, 4G', homeMs, staticMs, 'lower', {
        unit: 'ms',
        baselineName: 'static page, same emulation',
        target: { text: `< ${TARGET_HOME_MS} ms`, met: homeMs < TARGET_HOME_MS },
      }),
      row('sign-in form ready, signed out, 4G', authMs, staticMs, 'lower', {
        unit: 'ms',
        baselineName: 'static page, same emulation',
      }),
    );
    const startOf = (prefix: string) =>
      home.hits.find((h) => h.url === prefix || h.url.startsWith(`${prefix}?`))?.start ?? NaN;
    for (const [what, url] of [
      ['/api/auth/session', '/api/auth/session'],
      ['/api/subscription', '/api/subscription'],
      ['home data (/api/songs/home)', '/api/songs/home'],
    ] as const) {
      rows.push(
        row(`home: ${what} starts at`, startOf(url), staticMs, 'lower', {
          unit: 'ms',
          baselineName: 'static page load',
        }),
      );
    }
    for (const [label, run] of [
      ['/ signed in', home],
      ['/auth signed out', auths.find((l) => l.readyMs === authMs)!],
    ] as const) {
      const scripts = [
        ...new Set(run.hits.filter((h) => isScript(h) && h.start <= run.readyMs).map((h) => h.url)),
      ];
      const kb = scripts.reduce((sum, f) => sum + gzipKB(path.join(outDir, f)), 0);
      log(`  initial JS of ${label}: ${scripts.length} files, ${kb.toFixed(1)} KB gzip`);
      rows.push(
        row(`initial JS of ${label} (${scripts.length} files)`, kb, floor, 'lower', {
          unit: 'KB gz',
          baselineName: 'hello-world React build',
          target: { text: `< ${TARGET_KB} KB`, met: kb < TARGET_KB },
        }),
      );
    }
    await browser.close();
    browser = undefined;

    if (process.env.WEB_BENCH_LIGHTHOUSE !== '0') {
      try {
        log('  Lighthouse: baseline page…');
        const { score: baseline } = await lighthouse(bareUrl);
        log('  Lighthouse: /auth…');
        const { score } = await lighthouse(`${appUrl}/auth`);
        rows.push(
          row('Lighthouse performance of /auth (mobile)', score, baseline, 'higher', {
            unit: 'score',
            baselineName: 'static HTML page',
            target: { text: `≥ ${TARGET_SCORE}`, met: score >= TARGET_SCORE },
          }),
        );
      } catch (error) {
        log(`  Lighthouse failed: ${(error as Error).message}`);
        rows.push(
          unavailable(
            'Lighthouse performance of /auth',
            (error as Error).message.split('\n')[0]!.slice(0, 80),
          ),
        );
      }
    }
    return rows;
  } finally {
    await browser?.close();
    bare?.close();
    await app?.close();
    await database?.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await withTimeout(10 * 60_000, 'web bench', webBench({ log: console.log })));
}
