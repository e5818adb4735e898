// An episode whose media job fails for good shows 'Processing failed' with Retry on its show's
// page, to the show's creator only; once the cause is gone, Retry queues it again:
// 'Processing…', then ready (no status line). As media-retry.spec.ts does for songs, the
// failure is real: the server's ffmpeg fails every transcode run while this journey asks it.
import type { APIRequestContext } from '@playwright/test';
import { setFfmpegFault } from './ffmpeg-faults.ts';
import { sineWav } from './media.ts';
import { ARTIST_STATE, LISTENER_STATE, expect, requireArtistSession, test } from './support.ts';

// Keep in step with playwright.config.ts and serve.ts (port).
const port = Number(process.env.E2E_PORT ?? 3100);

test.skip(
  Boolean(process.env.E2E_BASE_URL),
  'needs the server serve.ts starts: only its ffmpeg can be made to fail',
);
test.use({ storageState: ARTIST_STATE });
test.beforeAll(() => requireArtistSession());

const run = Date.now().toString(36);
const SHOW = `Retry Show ${run}`;
const EPISODE = `Retry Episode ${run}`;
let showId = '';

type Episode = { id: string; title: string; status: 'processing' | 'ready' | 'failed' };

async function episodeOf(api: APIRequestContext): Promise<Episode> {
  const res = await api.get(`/api/podcasts/${showId}`);
  expect(res.status()).toBe(200);
  const episode = ((await res.json()) as { episodes: Episode[] }).episodes.find(
    (e) => e.title === EPISODE,
  );
  if (!episode) throw new Error(`${EPISODE} is not in its show`);
  return episode;
}

test.afterAll(async ({ playwright, baseURL }) => {
  setFfmpegFault(port, 'fail', false);
  setFfmpegFault(port, 'hold', false);
  if (!showId) return;
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  await api.delete(`/api/podcasts/${showId}`);
  await api.dispose();
});

test("an episode whose processing failed is retried from its show's page by its creator", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  const show = await api.post('/api/podcasts', { multipart: { title: SHOW } });
  expect(show.status(), await show.text()).toBe(201);
  showId = ((await show.json()) as { id: string }).id;

  setFfmpegFault(port, 'fail', true);
  const upload = await api.post(`/api/podcasts/${showId}/episodes`, {
    multipart: {
      title: EPISODE,
      audio: {
        name: 'retry.wav',
        mimeType: 'audio/wav',
        buffer: sineWav({ seconds: 3, hz: 330, sampleRate: 8000 }),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);

  // Retries wait 0.5-1 s, then 1-2, 2-4 and 4-8: 'Processing…' for several seconds, then the
  // failure, which the page learns by itself (it asks again while an episode processes).
  await page.goto(`/podcasts?show=${showId}`);
  const row = page.getByTestId('episode').filter({ hasText: EPISODE });
  await expect(row.getByText('Processing…')).toBeVisible();
  await expect(row.getByText('Processing failed')).toBeVisible({ timeout: 30_000 });
  expect((await episodeOf(api)).status).toBe('failed');

  // A listener sees the episode (playable from its original) but none of this.
  const listener = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const listenerPage = await listener.newPage();
  await listenerPage.goto(`/podcasts?show=${showId}`);
  const listenerRow = listenerPage.getByTestId('episode').filter({ hasText: EPISODE });
  await expect(listenerRow).toBeVisible();
  await expect(listenerRow.getByTestId('episode-media-status')).toHaveCount(0);
  await expect(listenerRow.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
  await listener.close();

  // The cause is gone; the next run is held so that 'Processing…' is there to be seen.
  setFfmpegFault(port, 'fail', false);
  setFfmpegFault(port, 'hold', true);
  const retry = row.getByRole('button', { name: `Retry processing ${EPISODE}` });
  await expect(retry).toHaveText('Retry');
  await retry.click();
  await expect(row.getByText('Processing…')).toBeVisible();
  await expect(row.getByText('Processing failed')).toHaveCount(0);
  expect((await episodeOf(api)).status).toBe('processing');
  setFfmpegFault(port, 'hold', false);

  // Ready: no status line at all.
  await expect(row.getByTestId('episode-media-status')).toHaveCount(0, { timeout: 30_000 });
  expect((await episodeOf(api)).status).toBe('ready');
  await api.dispose();
});
