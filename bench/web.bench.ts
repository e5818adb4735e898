/**
 * Web bench, two figures:
 *  1. Initial JavaScript of /auth and / in KB gzip: a production vite build (into a temp
 *     directory, so dist/web is left alone) with a manifest; the entry script and its
 *     modulepreloads from index.html plus the route's lazy page chunk and its static
 *     imports. Baseline: a one-component React app built by the same vite in the same run
 *     — the floor any React page pays. Target: < 250 KB.
 *  2. Lighthouse performance score of /auth (mobile preset, chromium headless, fresh
 *     profile) served by the real app from that build. Baseline: the score of a minimal
 *     static HTML page on 127.0.0.1 in the same browser, same run. Target: ≥ 90.
 *
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
import { buildApp, type App } from '../src/server/app.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';

const TARGET_KB = 250;
const TARGET_SCORE = 90;
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

type ManifestChunk = {
  file: string;
  imports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

const gzipKB = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;

/** Builds the web app into `outDir` with a manifest (CLI flags: vite.config.ts stays as is). */
function viteBuild(outDir: string) {
  const result = spawnSync(
    path.resolve('node_modules/.bin/vite'),
    ['build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
    { encoding: 'utf8', timeout: 5 * 60_000 },
  );
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stderr || result.stdout}`);
}

/** Files the browser fetches as JavaScript before /route can render. */
function initialScripts(
  outDir: string,
  manifest: Manifest,
  pageSource: RegExp | null,
): Set<string> {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g))
    files.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g))
    files.add(m[1]!);
  if (pageSource) {
    const key = Object.keys(manifest).find((k) => pageSource.test(k));
    if (!key) throw new Error(`no chunk for ${pageSource} in the build manifest`);
    const visit = (k: string) => {
      const chunk = manifest[k]!;
      if (files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const i of chunk.imports ?? []) visit(i);
    };
    visit(key);
  }
  return files;
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
      [
        'build',
        '--config',
        path.join(dir, 'vite.config.mjs'),
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--manifest',
      ],
      { encoding: 'utf8', timeout: 5 * 60_000 },
    );
    if (result.status !== 0)
      throw new Error(`vite build of the React floor failed:\n${result.stderr || result.stdout}`);
    const files = initialScripts(outDir, {}, null);
    return [...files].reduce((sum, f) => sum + gzipKB(path.join(outDir, f)), 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function lighthouseScore(url: string): Promise<number> {
  const { default: lighthouse } = await import('lighthouse');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-chrome-'));
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    userDataDir,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const score = result?.lhr.categories.performance?.score;
    if (typeof score !== 'number')
      throw new Error(`Lighthouse gave no performance score for ${url}`);
    return score * 100;
  } finally {
    await chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true });
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
  try {
    log('  building the web app…');
    viteBuild(outDir);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;
    const floor = reactFloorKB();
    for (const [route, page] of [
      ['/auth', /(^|\/)features\/auth\/auth-page\.tsx$/],
      ['/', /(^|\/)features\/catalogue\/home-page\.tsx$/],
    ] as const) {
      const files = initialScripts(outDir, manifest, page);
      const kb = [...files].reduce((sum, f) => sum + gzipKB(path.join(outDir, f)), 0);
      log(`  ${route}: ${[...files].join(', ')}`);
      rows.push(
        row(`initial JS of ${route} (entry + preloads + route chunk)`, kb, floor, 'lower', {
          unit: 'KB gz',
          baselineName: 'hello-world React build',
          target: { text: `< ${TARGET_KB} KB`, met: kb < TARGET_KB },
        }),
      );
    }

    try {
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

      log('  Lighthouse: baseline page…');
      const baseline = await lighthouseScore(bareUrl);
      log('  Lighthouse: /auth…');
      const score = await lighthouseScore(`${appUrl}/auth`);
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
    return rows;
  } finally {
    bare?.close();
    await app?.close();
    await database?.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await withTimeout(10 * 60_000, 'web bench', webBench({ log: console.log })));
}
