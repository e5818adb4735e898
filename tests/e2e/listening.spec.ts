// Recently played, stats (docs/decisions/0016) and the waveform scrubber, as the shared listener: a
// song played from a card is written as a stream record by the player, then shows first in
// /recently-played (playable from there) and counts in /stats (Total Streams, Most Played Songs).
// The seek slider moves by keyboard steps. Both screens pass axe. The fixture artist uploads the
// song through the API first and deletes it at the end (its records go with it).
import type { Page } from '@playwright/test';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  LISTENER_STATE,
  requireArtistSession,
  test,
} from './support.ts';
import { sineWav } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: LISTENER_STATE });

const run = Date.now().toString(36);
const title = `Listening ${run}`;
let songId = '';

test.beforeAll(async ({ playwright, baseURL }) => {
  requireArtistSession();
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  const res = await api.post('/api/songs', {
    multipart: {
      title,
      genre: 'Jazz',
      // A minute at 8 kHz: small to upload, long enough not to end mid-journey.
      file: {
        name: 'listening.wav',
        mimeType: 'audio/wav',
        buffer: sineWav({ seconds: 60, hz: 392, sampleRate: 8000 }),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  songId = ((await res.json()) as { id: string }).id;
  await api.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  if (!songId) return;
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  await api.delete(`/api/songs/${songId}`);
  await api.dispose();
});

const player = (page: Page) => page.getByRole('region', { name: 'Player' });
const playName = `Play ${title} by ${E2E_ARTIST.displayName}`;

test('a play from a card shows first in Recently Played and counts in Your Listening Stats', async ({
  page,
}) => {
  await page.goto('/');
  const card = page
    .getByRole('region', { name: 'Recent Tracks' })
    .getByTestId('song-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  // The player writes the stream record as the song starts.
  const recorded = page.waitForResponse(
    (r) => r.url().endsWith('/api/plays') && r.request().method() === 'POST',
  );
  await card.getByRole('button', { name: playName }).click();
  const bar = player(page);
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  const record = await recorded;
  expect(record.status()).toBe(201);
  await expect(bar.getByTestId('player-elapsed')).not.toHaveText('0:00', { timeout: 5_000 });
  await bar.getByRole('button', { name: 'Pause' }).click();

  // The seek slider (waveform scrubber): keyboard steps of 5 s, Home to the start.
  const seek = bar.getByRole('slider', { name: 'Seek' });
  await expect(seek).toHaveAttribute('aria-valuetext', /^0:0\d of 1:00$/);
  await seek.focus();
  await page.keyboard.press('Home');
  await expect(bar.getByTestId('player-elapsed')).toHaveText('0:00');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(bar.getByTestId('player-elapsed')).toHaveText('0:10');
  await expect(seek).toHaveAttribute('aria-valuetext', '0:10 of 1:00');

  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Recently Played' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Recently Played' })).toBeVisible();
  const first = page.getByTestId('recently-played-item').first();
  await expect(first).toContainText(title);
  await expect(first).toContainText(E2E_ARTIST.displayName);
  await expect(first.getByRole('button', { name: `Add ${title} to queue` })).toBeEnabled();
  // Playable from here: the current song's row toggles it.
  await first.getByRole('button', { name: playName }).click();
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  await bar.getByRole('button', { name: 'Pause' }).click();

  await page
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Your Stats' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your Listening Stats' })).toBeVisible();
  const totalStreams = page.locator('dt', { hasText: 'Total Streams' }).locator('+ dd');
  await expect(totalStreams).toHaveText(/^[\d,]+$/);
  expect(Number((await totalStreams.innerText()).replace(/,/g, ''))).toBeGreaterThanOrEqual(1);
  for (const figure of ['Hours Listened', 'Completion Rate', 'Completed Plays']) {
    await expect(page.locator('dt', { hasText: figure })).toBeVisible();
  }
  await expect(page.locator('dt', { hasText: 'Completion Rate' }).locator('+ dd')).toHaveText(/%$/);
  const mostPlayed = page.getByRole('region', { name: 'Most Played Songs' });
  await expect(mostPlayed.getByRole('listitem').filter({ hasText: title })).toContainText(
    /\d+ plays?/,
  );
  await expect(
    page.getByRole('region', { name: 'Your Top Artists' }).getByText(E2E_ARTIST.displayName),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Top Genres' }).getByText('Jazz')).toBeVisible();
  // Today has a stream, so the week's chart is there.
  await expect(page.getByRole('region', { name: 'Last 7 Days Activity' })).toBeVisible();
});

test('/recently-played and /stats have no serious or critical axe violations', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const page = await context.newPage();
  await page.goto('/recently-played');
  const first = page.getByTestId('recently-played-item').first();
  await expect(first).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  // Again with the row as the current song and the player bar (and its scrubber) on screen.
  await first.getByRole('button', { name: playName }).click();
  const bar = player(page);
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  await bar.getByRole('button', { name: 'Pause' }).click();
  await expect(first).toHaveAttribute('aria-current', 'true');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.goto('/stats');
  await expect(page.getByRole('region', { name: 'Most Played Songs' })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});
