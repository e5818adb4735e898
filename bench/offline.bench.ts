/**
 * Offline bench (docs/decisions/0036-offline-downloads.md): Play → the player's <audio> first
 * playing past 0 s, in headless Debian Chromium, for a downloaded song with the network off
 * (the service worker answers its Range requests from Cache Storage), against the same song
 * played online from /media in the same run and browser (before it was downloaded, cache
 * off). p50 of SAMPLES starts, a reload before each. Target < 150 ms.
 *
 * Also: Chromium's installability errors for the app (what Lighthouse's installable audit
 * read; Lighthouse 12 no longer has that audit), target none.
 *
 * The production server (server-process.ts) on a fresh DATA_DIR with the e2e fixture artist,
 * who uploads one 3-minute tone, subscribes through the test-mode checkout (PAYMENTS=local)
 * and puts the song in a playlist, whose page the browser plays it from.
 *
 * Run alone: npx tsx bench/offline.bench.ts   (OFFLINE_BENCH_SAMPLES, default 7)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createFfmpeg } from '../src/server/media/ffmpeg.ts';
import { E2E_ARTIST } from '../tests/e2e/accounts.ts';
import { median, row, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { ensureProductionBuild, signIn, startServer, type Server } from './server-process.ts';
import { CHROME_FLAGS } from './web.bench.ts';

const SAMPLES = Number(process.env.OFFLINE_BENCH_SAMPLES ?? 7);
const TARGET_MS = 150;
const TITLE = 'Bench offline tune';

async function call(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Click on the Play control → the player's <audio> playing past 0 s (polled every ~2 ms). */
async function clickToPlaying(page: Page, button: ReturnType<Page['getByRole']>): Promise<number> {
  await button.waitFor();
  // A string, not a function: tsx's keepNames would add a __name() the page does not have.
  await page.evaluate(`(() => {
    window.benchPlaying = new Promise((resolve) => {
      let clickedAt = NaN;
      function poll() {
        const a = document.querySelector('[data-testid="player-audio"]');
        if (a && !a.paused && a.currentTime > 0) resolve(performance.now() - clickedAt);
        else setTimeout(poll, 2);
      }
      window.addEventListener('click', () => { clickedAt = performance.now(); poll(); },
        { capture: true, once: true });
    });
  })()`);
  await button.click();
  const ms = await withTimeout(
    30_000,
    'playing',
    page.evaluate('window.benchPlaying') as Promise<number>,
  );
  await page.getByRole('region', { name: 'Player' }).getByRole('button', { name: 'Pause' }).click();
  return ms;
}

export async function offlineBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-offline-'));
  const dataDir = path.join(work, 'data');
  let server: Server | undefined;
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
  try {
    ensureProductionBuild();
    const fixtures = spawnSync(
      path.resolve('node_modules/.bin/tsx'),
      ['tests/e2e/fixture-accounts.ts'],
      { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
    );
    if (fixtures.status !== 0) throw new Error(`fixture accounts: ${fixtures.stderr}`);
    const ffmpeg = createFfmpeg({ binary: process.env.FFMPEG_PATH, concurrency: 1 }).binary();
    const wav = path.join(work, 'tune.wav');
    const made = spawnSync(
      ffmpeg,
      [
        '-v',
        'error',
        '-nostdin',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:sample_rate=44100:duration=180',
      ].concat(['-ac', '2', '-c:a', 'pcm_s16le', '-y', wav]),
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`ffmpeg could not make a WAV: ${made.stderr}`);

    server = await startServer('canto', {
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'error',
      PAYMENTS: 'local',
      CATALOGUE_URL: 'http://127.0.0.1:9',
    });
    const token = await signIn(server.url, E2E_ARTIST.email, E2E_ARTIST.password);
    const form = new FormData();
    form.append('title', TITLE);
    form.append('file', await fs.openAsBlob(wav, { type: 'audio/wav' }), 'tune.wav');
    const uploaded = await fetch(`${server.url}/api/songs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}`);
    const songId = ((await uploaded.json()) as { id: string }).id;
    for (const started = Date.now(); ;) {
      const song = await call(server.url, token, 'GET', `/api/songs/${songId}`);
      if (song.status === 'ready') break;
      if (song.status === 'failed') throw new Error('the media job failed');
      if (Date.now() - started > 10 * 60_000) throw new Error('renditions took over 10 min');
      await new Promise((r) => setTimeout(r, 1000));
    }
    const checkout = await call(server.url, token, 'POST', '/api/premium/checkout');
    const session = new URL(String(checkout.url), server.url).searchParams.get('session');
    await call(server.url, token, 'POST', '/api/premium/local/checkout/confirm', { session });
    const playlist = await call(server.url, token, 'POST', '/api/playlists', { title: 'Bench' });
    await call(server.url, token, 'POST', `/api/playlists/${String(playlist.id)}/tracks`, {
      song_id: songId,
    });
    log('  song ready, artist subscribed, playlist made');

    context = await chromium.launchPersistentContext(path.join(work, 'chrome-profile'), {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROME_FLAGS.filter((flag) => !flag.startsWith('--headless')),
    });
    context.setDefaultTimeout(30_000);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/auth`);
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill(E2E_ARTIST.email);
    await page.getByLabel('Password').fill(E2E_ARTIST.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    log(`  installability errors: ${JSON.stringify(installabilityErrors.map((e) => e.errorId))}`);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

    const playlistUrl = `${server.url}/playlist/${String(playlist.id)}`;
    const online: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await page.goto(playlistUrl);
      online.push(
        await clickToPlaying(
          page,
          page.getByRole('button', { name: `Play ${TITLE} by ${E2E_ARTIST.displayName}` }),
        ),
      );
    }
    log(`  online from /media: ${online.map(Math.round).join(', ')} ms`);

    await page.goto(playlistUrl);
    await page.getByRole('button', { name: `Download ${TITLE}` }).click();
    await page.getByRole('button', { name: `Downloaded ${TITLE}` }).waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    const offline: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await page.goto(`${server.url}/downloads`);
      const src = page.getByRole('list', { name: 'Downloads' });
      offline.push(await clickToPlaying(page, src.getByRole('button', { name: `Play ${TITLE}` })));
    }
    const src = await page.getByTestId('player-audio').getAttribute('src');
    if (!src?.startsWith('/offline/')) throw new Error(`played ${src}, not the download`);
    log(`  offline from the cache: ${offline.map(Math.round).join(', ')} ms`);
    await context.setOffline(false);

    const errors = installabilityErrors.length;
    return [
      row(
        `Play → playing, a downloaded song with the network off, p50 of ${SAMPLES}`,
        median(offline),
        median(online),
        'lower',
        {
          unit: 'ms',
          baselineName: 'the same song online from /media (localhost, cache off)',
          target: { text: `< ${TARGET_MS} ms`, met: median(offline) < TARGET_MS },
        },
      ),
      {
        name: 'installability errors (Chromium, as Lighthouse’s installable audit read them)',
        value: errors,
        baseline: Number.NaN,
        ratio: Number.NaN,
        target: { text: 'none', met: errors === 0 },
      },
    ];
  } finally {
    await context?.close();
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(
    await withTimeout(20 * 60_000, 'offline bench', offlineBench({ log: console.log })),
  );
  process.exit(0);
}
