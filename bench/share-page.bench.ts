/**
 * Share bench: what a visitor who follows a share link downloads and waits for.
 *
 *  1. Lighthouse (mobile preset: a phone's screen, 4× CPU slowdown and Lighthouse's simulated
 *     slow 4G, its defaults; fresh profile) on a song's page /song/{id}, signed out:
 *     performance score and Largest Contentful Paint. Baseline: a static HTML page scored the
 *     same way in the same run (the one web.bench.ts uses). Targets: score ≥ 90, LCP < 2 s.
 *     A visitor gets dist/web/song-visitor.html with the song written in (ADR 0035).
 *  2. The embed page's JavaScript (dist/web/embed.html's module script and preloads), KB gzip.
 *     Baseline: the app's own initial JavaScript (index.html's), same build. Target: < 50 KB.
 *
 * The production server (`npm start`'s command, server-process.ts) on a fresh DATA_DIR with the
 * e2e fixture artist, who uploads one 20 s song with a 600 px cover, waited for until its share
 * link answers (renditions and preview made).
 * Run alone: npx tsx bench/share-page.bench.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { encodeWav } from '../src/server/demo/synth.ts';
import { E2E_ARTIST } from '../tests/e2e/accounts.ts';
import { row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { ensureProductionBuild, signIn, startServer, type Server } from './server-process.ts';
import { gzipKB, htmlScripts, lighthouse } from './web.bench.ts';

const TARGET_SCORE = 90;
const TARGET_LCP_MS = 2000;
const TARGET_EMBED_KB = 50;
const webDir = path.resolve('dist/web');

/** The JavaScript a page of the build loads before anything runs: module script and preloads. */
function pageScriptsKB(page: string): { files: number; kb: number } {
  const files = htmlScripts(webDir, page);
  return {
    files: files.length,
    kb: files.reduce((sum, f) => sum + gzipKB(path.join(webDir, f)), 0),
  };
}

async function uploadSong(url: string, token: string): Promise<string> {
  const samples = new Float32Array(20 * 22_050);
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.sin((2 * Math.PI * 440 * i) / 22_050) * 0.3;
  const cover = await sharp({
    create: { width: 600, height: 600, channels: 3, background: { r: 124, g: 58, b: 237 } },
  })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('title', 'Bench shared song');
  form.append('genre', 'Ambient');
  form.append(
    'file',
    new Blob([new Uint8Array(encodeWav(samples, 22_050))], { type: 'audio/wav' }),
    'a.wav',
  );
  form.append('cover', new Blob([new Uint8Array(cover)], { type: 'image/jpeg' }), 'cover.jpg');
  const res = await fetch(`${url}/api/songs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id: string }).id;
}

/** Until the song's share link answers a visitor: processed, with its preview. */
async function waitShared(url: string, id: string) {
  const started = Date.now();
  for (;;) {
    const res = await fetch(`${url}/api/share/songs/${id}`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    if (Date.now() - started > 10 * 60_000) throw new Error('the song was not shareable in 10 min');
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function sharePageBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-share-'));
  const dataDir = path.join(work, 'data');
  const rows: BenchRow[] = [];
  let server: Server | undefined;
  let bare: http.Server | undefined;
  try {
    ensureProductionBuild();

    const embed = pageScriptsKB('embed.html');
    const app = pageScriptsKB('index.html');
    log(
      `  embed page JS: ${embed.files} files, ${embed.kb.toFixed(1)} KB gzip; the app's initial JS: ${app.files} files, ${app.kb.toFixed(1)} KB gzip`,
    );
    rows.push(
      row(`embed page JS (${embed.files} files)`, embed.kb, app.kb, 'lower', {
        unit: 'KB gz',
        baselineName: "the app's initial JS",
        target: { text: `< ${TARGET_EMBED_KB} KB`, met: embed.kb < TARGET_EMBED_KB },
      }),
    );

    const fixtures = spawnSync(
      path.resolve('node_modules/.bin/tsx'),
      ['tests/e2e/fixture-accounts.ts'],
      { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
    );
    if (fixtures.status !== 0) throw new Error(`fixture accounts: ${fixtures.stderr}`);
    server = await startServer('canto', {
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'error',
      CATALOGUE_URL: 'http://127.0.0.1:9',
    });
    const token = await signIn(server.url, E2E_ARTIST.email, E2E_ARTIST.password);
    const id = await uploadSong(server.url, token);
    await waitShared(server.url, id);
    log(`  song ${id} shared`);

    bare = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Baseline</title></head><body><h1>Baseline</h1><p>A static page.</p></body></html>',
      );
    });
    await new Promise<void>((resolve) => bare!.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

    try {
      log('  Lighthouse: baseline page…');
      const baseline = await lighthouse(bareUrl);
      log('  Lighthouse: /song/{id} signed out…');
      const song = await lighthouse(`${server.url}/song/${id}`);
      log(
        `  baseline score ${baseline.score}, LCP ${Math.round(baseline.lcpMs)} ms; song page score ${song.score}, LCP ${Math.round(song.lcpMs)} ms`,
      );
      rows.push(
        row(
          'Lighthouse performance of /song/{id}, signed out (mobile)',
          song.score,
          baseline.score,
          'higher',
          {
            unit: 'score',
            baselineName: 'static HTML page',
            target: { text: `≥ ${TARGET_SCORE}`, met: song.score >= TARGET_SCORE },
          },
        ),
        row(
          'LCP of /song/{id}, signed out (mobile, slow 4G)',
          song.lcpMs,
          baseline.lcpMs,
          'lower',
          {
            unit: 'ms',
            baselineName: 'static HTML page',
            target: { text: `< ${TARGET_LCP_MS} ms`, met: song.lcpMs < TARGET_LCP_MS },
          },
        ),
      );
    } catch (error) {
      log(`  Lighthouse failed: ${(error as Error).message}`);
      rows.push(
        unavailable(
          'Lighthouse of /song/{id}',
          (error as Error).message.split('\n')[0]!.slice(0, 80),
        ),
      );
    }
    return rows;
  } finally {
    bare?.close();
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(
    await withTimeout(15 * 60_000, 'share bench', sharePageBench({ log: console.log })),
  );
}
