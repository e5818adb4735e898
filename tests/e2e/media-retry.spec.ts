// docs/decisions/0014: a song whose media job fails for good shows 'Processing failed' with Retry
// on its artist's own card; once the cause is gone, Retry queues it again: 'Processing…', then
// ready (no badge), and it plays its Opus rendition. The failure is real: the server's ffmpeg
// (serve.ts, ffmpeg-faults.ts) fails every transcode run while this journey asks it to, so the job
// spends its five attempts and dead-letters (retry waits shortened with the server's
// JOB_RETRY_SECONDS).
import type { APIRequestContext, Page } from '@playwright/test';
import { setFfmpegFault } from './ffmpeg-faults.ts';
import { sineWav } from './media.ts';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  expectToast,
  requireArtistSession,
  test,
} from './support.ts';

// Keep in step with playwright.config.ts and serve.ts (port).
const port = Number(process.env.E2E_PORT ?? 3100);

test.skip(
  Boolean(process.env.E2E_BASE_URL),
  'needs the server serve.ts starts: only its ffmpeg can be made to fail',
);
test.use({ storageState: ARTIST_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
const title = `Retry ${run}`;

interface Song {
  id: string;
  title: string;
  file_url: string;
  status: 'processing' | 'ready' | 'failed';
  renditions: Array<{ url: string; codec: 'opus' | 'aac'; bitrate_kbps: number }>;
}

let songId: string | null = null;

const recentCard = (page: Page) =>
  page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** A signed URL without its signature: the window may roll between two reads. */
const pathOf = (url: string) => new URL(url, 'http://canto.test').pathname;

// Home's newest songs (search answers are cached for a few seconds, so may be older).
async function findSong(api: APIRequestContext): Promise<Song> {
  const res = await api.get('/api/songs/home');
  expect(res.status()).toBe(200);
  const song = ((await res.json()) as { recent: Song[] }).recent.find((s) => s.title === title);
  if (!song) throw new Error(`${title} is not among the recent songs`);
  return song;
}

test.afterAll(async ({ playwright, baseURL }) => {
  setFfmpegFault(port, 'fail', false);
  setFfmpegFault(port, 'hold', false);
  if (!songId) return;
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  await api.delete(`/api/songs/${songId}`);
  await api.dispose();
});

test('a song whose processing failed is retried from its card and then plays its Opus rendition', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  setFfmpegFault(port, 'fail', true);

  await page.goto('/upload');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Audio file').setInputFiles({
    name: 'retry.wav',
    mimeType: 'audio/wav',
    buffer: sineWav({ seconds: 3 }),
  });
  await page.getByRole('button', { name: 'Upload Song' }).click();
  await expectToast(page, 'Song uploaded successfully!');
  await expect(page).toHaveURL(/\/$/);

  // Retries wait 0.5-1 s, then 1-2, 2-4 and 4-8: 'Processing…' for several seconds, then the
  // failure, which the card learns by itself (it asks again while its song processes).
  const card = recentCard(page);
  await expect(card.getByText('Processing…')).toBeVisible();
  songId = (await findSong(api)).id;
  await expect(card.getByText('Processing failed')).toBeVisible({ timeout: 30_000 });
  const retry = card.getByRole('button', { name: `Retry processing ${title}` });
  await expect(retry).toHaveText('Retry');
  const failed = await findSong(api);
  expect(failed.status).toBe('failed');
  expect(failed.renditions).toEqual([]);

  // The cause is gone; the next run is held so that 'Processing…' is there to be seen.
  setFfmpegFault(port, 'fail', false);
  setFfmpegFault(port, 'hold', true);
  await retry.click();
  await expect(card.getByText('Processing…')).toBeVisible();
  await expect(card.getByText('Processing failed')).toHaveCount(0);
  expect((await findSong(api)).status).toBe('processing');
  setFfmpegFault(port, 'hold', false);

  // Ready: no badge at all.
  await expect(card.getByTestId('song-media-status')).toHaveCount(0, { timeout: 20_000 });
  const ready = await findSong(api);
  await api.dispose();
  expect(ready.status).toBe('ready');
  const opus160 = ready.renditions.find((r) => r.codec === 'opus' && r.bitrate_kbps === 160);
  if (!opus160) throw new Error(`no Opus 160: ${JSON.stringify(ready.renditions)}`);

  // Normal quality (the default) in Chromium, which plays Opus: the 160 kbit/s rendition.
  await card.getByRole('button', { name: `Play ${title} by ${E2E_ARTIST.displayName}` }).click();
  const bar = page.getByRole('region', { name: 'Player' });
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  const audio = page.getByTestId('player-audio');
  await expect
    .poll(async () => pathOf(await audio.evaluate((a: HTMLAudioElement) => a.currentSrc)))
    .toBe(pathOf(opus160.url));
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => !a.paused && a.currentTime > 0))
    .toBe(true);
});
