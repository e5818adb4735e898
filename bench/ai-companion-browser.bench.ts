/**
 * AI companion in the browser (docs/decisions/0033): a subscriber types 'play something jazzy'
 * into the companion panel on Home, and the time from the Enter key to the player's <audio>
 * playing a jazz song (currentTime > 0) is taken in the page with performance.now(), polled
 * every few ms. Everything between is real: the socket, the local engine's plan, the tools
 * run by the page (recommendations by genre, then control_playback on the real player), the
 * media request and the decoder. Baseline, same run, same song, same fresh page: a click on
 * the song's own Play control on Home to the same moment (the app's click-to-play). Target:
 * < 1 s on localhost. Median of RUNS, each in a fresh browser context (nothing cached, no
 * player state carried over), the two kinds alternating.
 *
 * The production server (`npm start`'s command) on a fresh DATA_DIR with the e2e fixture
 * artist, who uploads one jazz song and becomes a subscriber through the local test-mode
 * checkout. Run alone: npx tsx bench/ai-companion-browser.bench.ts (AI_BROWSER_BENCH_RUNS).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createFfmpeg } from '../src/server/media/ffmpeg.ts';
import { E2E_ARTIST } from '../tests/e2e/accounts.ts';
import { median, row, withTimeout, type BenchRow, type Log } from './bench-kit.ts';
import { ensureProductionBuild, signIn, startServer, type Server } from './server-process.ts';
import { CHROME_FLAGS } from './web.bench.ts';

const RUNS = Number(process.env.AI_BROWSER_BENCH_RUNS ?? 5);
const TARGET_MS = 1000;
const TITLE = 'Bench Blue Smoke';

async function post(url: string, token: string, body?: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function uploadJazz(url: string, token: string, file: string): Promise<string> {
  const form = new FormData();
  form.append('title', TITLE);
  form.append('genre', 'Jazz');
  form.append('file', await fs.openAsBlob(file, { type: 'audio/wav' }), 'jazz.wav');
  const res = await fetch(`${url}/api/songs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text.slice(0, 300)}`);
  const id = (JSON.parse(text) as { id: string }).id;
  const started = Date.now();
  for (;;) {
    const song = (await (
      await fetch(`${url}/api/songs/${id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { status: string; renditions: unknown[] };
    if (song.status === 'failed') throw new Error('the jazz song failed its media job');
    if (song.status === 'ready' && song.renditions.length > 0) return id;
    if (Date.now() - started > 5 * 60_000) throw new Error('renditions took over 5 min');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Arms a timer in the page: from the first `event` (capture phase on window, before the app
 * sees it) to the player's audio playing TITLE past 0 s.
 */
async function armTimer(page: Page, event: 'click' | 'keydown') {
  // A string, not a function: tsx's keepNames would add a __name() the page does not have.
  await page.evaluate(`(() => {
    window.benchPlaying = new Promise((resolve) => {
      let startedAt = NaN;
      function poll() {
        const a = document.querySelector('[data-testid="player-audio"]');
        const title = document.querySelector('[data-testid="player-title"]');
        if (a && !a.paused && a.currentTime > 0 && title && title.textContent === ${JSON.stringify(TITLE)})
          resolve(performance.now() - startedAt);
        else setTimeout(poll, 2);
      }
      window.addEventListener('${event}', () => { startedAt = performance.now(); poll(); },
        { capture: true, once: true });
    });
  })()`);
}

async function waitPlaying(page: Page): Promise<number> {
  return withTimeout(
    20_000,
    'audio playing',
    page.evaluate('window.benchPlaying') as Promise<number>,
  );
}

async function companionRun(browser: Browser, url: string, state: string): Promise<number> {
  const context = await browser.newContext({ baseURL: url, storageState: state });
  try {
    const page = await context.newPage();
    await page.goto('/');
    const panel = page.getByRole('region', { name: 'AI Music Companion' });
    await panel.getByRole('button', { name: 'Start AI Companion' }).click();
    await panel
      .getByRole('status', { name: 'Companion status' })
      .getByText('Ready to help')
      .waitFor({ timeout: 20_000 });
    const box = panel.getByRole('textbox', { name: 'Message' });
    await box.fill('play something jazzy');
    await armTimer(page, 'keydown');
    await box.press('Enter');
    return await waitPlaying(page);
  } finally {
    await context.close();
  }
}

async function clickRun(browser: Browser, url: string, state: string): Promise<number> {
  const context = await browser.newContext({ baseURL: url, storageState: state });
  try {
    const page = await context.newPage();
    await page.goto('/');
    const play = page
      .getByRole('button', { name: `Play ${TITLE} by ${E2E_ARTIST.displayName}`, exact: true })
      .first();
    await play.waitFor({ timeout: 20_000 });
    await armTimer(page, 'click');
    await play.click();
    return await waitPlaying(page);
  } finally {
    await context.close();
  }
}

export async function aiCompanionBrowserBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-ai-browser-'));
  const dataDir = path.join(work, 'data');
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    ensureProductionBuild();
    const fixtures = spawnSync(
      path.resolve('node_modules/.bin/tsx'),
      ['tests/e2e/fixture-accounts.ts'],
      { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
    );
    if (fixtures.status !== 0) throw new Error(`fixture accounts: ${fixtures.stderr}`);
    const ffmpeg = createFfmpeg({ binary: process.env.FFMPEG_PATH, concurrency: 1 }).binary();
    const wav = path.join(work, 'jazz.wav');
    const made = spawnSync(ffmpeg, [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=60'],
      ...['-ar', '44100', '-ac', '2', wav],
    ]);
    if (made.status !== 0) throw new Error(`ffmpeg: ${String(made.stderr)}`);
    server = await startServer('canto', {
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'error',
      PAYMENTS: 'local',
      AI_PROVIDER: 'local',
      CATALOGUE_URL: 'http://127.0.0.1:9',
    });
    const token = await signIn(server.url, E2E_ARTIST.email, E2E_ARTIST.password);
    await uploadJazz(server.url, token, wav);
    // The artist becomes a subscriber through the local test-mode checkout.
    const checkout = await post(`${server.url}/api/premium/checkout`, token);
    const session = new URL(String(checkout.url), server.url).searchParams.get('session');
    await post(`${server.url}/api/premium/local/checkout/confirm`, token, { session });
    log('  one jazz song ready; the artist is a subscriber');

    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        ...CHROME_FLAGS.filter((flag) => !flag.startsWith('--headless')),
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    const signInContext = await browser.newContext({ baseURL: server.url });
    const page = await signInContext.newPage();
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill(E2E_ARTIST.email);
    await page.getByLabel('Password').fill(E2E_ARTIST.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    const state = path.join(work, 'state.json');
    await signInContext.storageState({ path: state });
    await signInContext.close();

    // One of each first, not counted: the server's and the browser's first-use costs.
    await companionRun(browser, server.url, state);
    await clickRun(browser, server.url, state);
    const typed: number[] = [];
    const clicked: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      typed.push(await companionRun(browser, server.url, state));
      clicked.push(await clickRun(browser, server.url, state));
    }
    const fmt = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
    log(`  typed → playing (ms): ${fmt(typed)}`);
    log(`  click → playing (ms): ${fmt(clicked)}`);
    const value = median(typed);
    const baseline = median(clicked);
    return [
      row(
        "companion: typed 'play something jazzy' → jazz audio playing, median ms",
        value,
        baseline,
        'lower',
        {
          unit: 'ms',
          baselineName: "click on the song's Play → playing",
          target: { text: `< ${TARGET_MS} ms`, met: value < TARGET_MS },
        },
      ),
    ];
  } finally {
    await browser?.close();
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await aiCompanionBrowserBench({ log: console.log })) console.log(r);
}
