// The catalogue's browser journeys: upload (progress, success, refusal), playback through
// the player bar (time advances, seeking over HTTP Range), search, browse and axe scans.
// They run in order on two songs of this run and delete them at the end, so journeys that
// expect an empty catalogue (shell.spec.ts) still see one.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  test,
} from './support.ts';
import { coverPng, sineWav } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: ARTIST_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
// The search sort check leans on these: A matches the query best, B is newer.
const songA = { title: `Sine ${run} alpha`, genre: 'Rock' };
const songB = { title: `Sine ${run} alpha with a longer tail`, genre: 'Jazz' };
const AUDIO_SECONDS = 10;

async function artistApi(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  baseURL: string | undefined,
) {
  return playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
}

const card = (page: Page, title: string, scope: Page | Locator = page) =>
  scope
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const player = (page: Page) => page.getByRole('region', { name: 'Player' });

test.afterAll(async ({ playwright, baseURL }) => {
  const api = await artistApi(playwright, baseURL);
  const res = await api.get(`/api/search?q=${encodeURIComponent(`Sine ${run}`)}`);
  if (res.ok()) {
    for (const song of (await res.json()).songs as Array<{ id: string; source: string | null }>) {
      if (!song.source) await api.delete(`/api/songs/${song.id}`);
    }
  }
  await api.dispose();
});

test('an artist uploads a song with cover art, with progress, and it appears on Home', async ({
  page,
}) => {
  await page.goto('/upload');
  await expect(page.getByRole('heading', { level: 1, name: 'Upload Music' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back to Home' })).toBeVisible();

  await page.getByLabel('Title').fill(songA.title);
  await page.getByLabel('Genre').fill(songA.genre);
  const wav = sineWav({ seconds: AUDIO_SECONDS });
  await page.getByLabel('Audio file').setInputFiles({
    name: 'sine.wav',
    mimeType: 'audio/wav',
    buffer: wav,
  });
  await expect(page.getByText('sine.wav')).toBeVisible();
  await expect(page.getByText(/· 431 KB/)).toBeVisible();
  await page.getByLabel('Cover art (optional)').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: await coverPng(),
  });
  await expect(page.getByRole('img', { name: 'Chosen cover art' })).toBeVisible();

  // A slow uplink, so the progress bar is on screen long enough to be seen.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 150 * 1024,
  });
  await page.getByRole('button', { name: 'Upload Song' }).click();
  const progress = page.getByRole('progressbar', { name: 'Uploading...' });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
  await expectToast(page, 'Song uploaded successfully!');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  await expect(page).toHaveURL(/\/$/);
  const recent = page.getByRole('region', { name: 'Recent Tracks' });
  const uploaded = card(page, songA.title, recent);
  await expect(uploaded).toBeVisible();
  await expect(uploaded.getByText(E2E_ARTIST.displayName)).toBeVisible();
  await expect(uploaded.locator('img').first()).toHaveAttribute('src', /^\/media\//);
});

test('the uploaded song plays in the player bar; time advances, seek and volume work', async ({
  page,
}) => {
  await page.goto('/');
  const uploaded = card(page, songA.title).first();
  await uploaded
    .getByRole('button', { name: `Play ${songA.title} by ${E2E_ARTIST.displayName}` })
    .click();

  const bar = player(page);
  await expect(bar).toBeVisible();
  await expect(bar.getByTestId('player-title')).toHaveText(songA.title);
  await expect(bar.getByTestId('player-artist')).toHaveText(E2E_ARTIST.displayName);
  await expect(bar.getByTestId('player-duration')).toHaveText('0:10');
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(bar.getByTestId('player-elapsed')).not.toHaveText('0:00', { timeout: 5_000 });

  // The media route answers Range requests, so the whole file is seekable.
  const audio = page.getByTestId('player-audio');
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.seekable.length && a.seekable.end(0)))
    .toBeGreaterThan(AUDIO_SECONDS - 0.5);
  await bar.getByRole('slider', { name: 'Seek' }).fill('6');
  await expect(bar.getByTestId('player-elapsed')).toHaveText(/0:0[6-9]/);
  expect(await audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(6);

  const volume = bar.getByRole('slider', { name: 'Volume' });
  await expect(volume).toHaveValue('70');
  await volume.fill('30');
  expect(await audio.evaluate((a: HTMLAudioElement) => a.volume)).toBeCloseTo(0.3);

  // The current card toggles play/pause, and so does the bar.
  await uploaded.getByRole('button', { name: `Pause ${songA.title}`, exact: false }).click();
  await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
  expect(await audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
  await bar.getByRole('button', { name: 'Play' }).click();
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  expect(await audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(false);
});

test.describe('refused uploads', () => {
  test.use({ allowedConsoleErrors: [/status of 415/] });

  test('no file, then a file named .mp3 that is not audio: Upload Failed', async ({ page }) => {
    await page.goto('/upload');
    await page.getByRole('button', { name: 'Upload Song' }).click();
    await expectToast(page, 'Upload Failed', 'Please select a music file to upload');

    await page.getByLabel('Title').fill(`Not audio ${run}`);
    await page.getByLabel('Audio file').setInputFiles({
      name: 'not-really.mp3',
      mimeType: 'audio/mpeg',
      buffer: Buffer.from('This is a text file wearing an .mp3 name.\n'.repeat(50)),
    });
    await page.getByRole('button', { name: 'Upload Song' }).click();
    await expectToast(
      page,
      'Upload Failed',
      'Music file validation failed. Please ensure you are uploading a valid audio file.',
    );
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByRole('button', { name: 'Upload Song' })).toBeEnabled();
  });
});

test.describe('a listener', () => {
  test.use({ storageState: LISTENER_STATE });

  test('visiting /upload is sent to /', async ({ page }) => {
    await page.goto('/upload');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });
});

test('search finds songs by title and genre; filters and sort change results', async ({
  page,
  playwright,
  baseURL,
}) => {
  // A second, newer song, sent straight to the API: one upload through the form is enough.
  const api = await artistApi(playwright, baseURL);
  const res = await api.post('/api/songs', {
    multipart: {
      title: songB.title,
      genre: songB.genre,
      file: { name: 'tail.wav', mimeType: 'audio/wav', buffer: sineWav({ seconds: 2, hz: 660 }) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();

  await page.goto('/search');
  await expect(page.getByRole('tab', { name: 'Songs', selected: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Podcasts' })).toBeVisible();
  const box = page.getByLabel('Search songs and podcasts');
  const results = page.getByRole('region', { name: 'Song results' });
  const titles = results.getByRole('heading', { level: 3 });

  await box.fill(songA.title);
  await expect(titles.first()).toHaveText(songA.title);
  await expect(titles).toHaveText([songA.title, songB.title]);

  // The query lives in the URL, each settled query a history entry.
  const urlQuery = () => new URL(page.url()).searchParams.get('q');
  await expect.poll(urlQuery).toBe(songA.title);

  // By genre: the query matches the genre too.
  await box.fill(`Jazz`);
  await expect(titles).toContainText([songB.title]);
  await expect.poll(urlQuery).toBe('Jazz');
  // Back returns to the previous search, forward to the next; a shared link opens it.
  await page.goBack();
  await expect(box).toHaveValue(songA.title);
  await expect(titles).toHaveText([songA.title, songB.title]);
  await page.goForward();
  await expect(box).toHaveValue('Jazz');
  await page.goto('/search?q=Jazz');
  await expect(box).toHaveValue('Jazz');
  await expect(titles).toContainText([songB.title]);

  // An empty query clears the results.
  await box.fill('');
  await expect(titles).toHaveCount(0);
  await expect(results.getByText('Search songs by title or genre.')).toBeVisible();

  await box.fill(songA.title);
  await expect(titles).toHaveText([songA.title, songB.title]);
  const clear = page.getByRole('button', { name: 'Clear filters' });
  await expect(clear).toHaveCount(0);

  const sort = page.getByLabel('Sort by');
  await sort.selectOption('recent');
  await expect(titles).toHaveText([songB.title, songA.title]);
  await expect(clear).toBeVisible();

  const genre = page.getByLabel('Genre');
  await genre.selectOption('rock');
  await expect(titles).toHaveText([songA.title]);
  await genre.selectOption('jazz');
  await expect(titles).toHaveText([songB.title]);

  await clear.click();
  await expect(genre).toHaveValue('all');
  await expect(sort).toHaveValue('relevance');
  await expect(clear).toHaveCount(0);
  await expect(titles).toHaveText([songA.title, songB.title]);

  await page.getByRole('tab', { name: 'Podcasts' }).click();
  await expect(page.getByText(`No podcasts found for "${songA.title}"`)).toBeVisible();
});

test('browse shows trending, new releases and genre tiles; a tile opens its genre', async ({
  page,
}) => {
  await page.goto('/browse');
  await expect(page.getByRole('heading', { name: 'Trending Now' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'New Releases' })).toBeVisible();
  const newReleases = page.getByRole('region', { name: 'New Releases' });
  await expect(newReleases.getByRole('heading', { level: 3 }).first()).toHaveText(songB.title);

  const genres = page.getByRole('region', { name: 'Browse by Genre' });
  const tiles = genres.getByRole('link');
  await expect(tiles).toHaveText([
    'Pop',
    'Rock',
    'Hip Hop',
    'Electronic',
    'Jazz',
    'Classical',
    'R&B',
    'Country',
  ]);

  await genres.getByRole('link', { name: 'Rock' }).click();
  await expect(page).toHaveURL(/\/browse\?genre=Rock$/);
  const rock = page.getByRole('region', { name: 'Rock' });
  await expect(rock.getByRole('heading', { level: 3 })).toHaveText([songA.title]);
  await expect(genres.getByRole('link', { name: 'Rock' })).toHaveAttribute('aria-current', 'page');

  await genres.getByRole('link', { name: 'Country' }).click();
  await expect(
    page.getByRole('region', { name: 'Country' }).getByText('No tracks available yet'),
  ).toBeVisible();

  await page.getByRole('link', { name: 'All of Browse' }).click();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(page.getByRole('heading', { name: 'Trending Now' })).toBeVisible();
});

test('/browse, /search and /upload (and the player bar) have no serious axe violations', async ({
  browser,
  baseURL,
}) => {
  // Four full axe scans: slow on a busy machine.
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL, storageState: ARTIST_STATE });
  const page = await context.newPage();

  await page.goto('/browse');
  await expect(card(page, songA.title).first()).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  // With the player bar on screen.
  await card(page, songA.title)
    .first()
    .getByRole('button', { name: /^Play / })
    .click();
  await expect(player(page)).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.goto('/search');
  await page.getByLabel('Search songs and podcasts').fill(songA.title);
  await expect(card(page, songA.title)).toBeVisible();
  await page.getByLabel('Sort by').selectOption('popular');
  await expect(page.getByRole('button', { name: 'Clear filters' })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  await page.goto('/upload');
  await expect(page.getByLabel('Audio file')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});
