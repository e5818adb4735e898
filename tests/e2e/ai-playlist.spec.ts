// 'Generate AI Playlist' and 'Explore Now' (docs/decisions/0032), as the shared listener: the
// fixture artist uploads 24 songs through the API, the listener plays two of them (their
// history), then the home banner's button makes the AI mix and opens it — 20 songs, none of
// the two just played — and Play All puts its first song in the player. Regenerate gives the
// same playlist new songs; 'Explore Now' lists recommendations, playable.
import type { Page } from '@playwright/test';
import { ARTIST_STATE, expect, LISTENER_STATE, requireArtistSession, test } from './support.ts';
import { sineWav } from './media.ts';

test.describe.configure({ mode: 'serial' });
test.use({ storageState: LISTENER_STATE });

const run = Date.now().toString(36);
const SONGS = 24;
const songIds: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  requireArtistSession();
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  for (let k = 0; k < SONGS; k++) {
    const res = await artist.post('/api/songs', {
      multipart: {
        title: `Mix ${run} ${k}`,
        genre: k % 2 ? 'Jazz' : 'Soul',
        file: {
          name: `mix-${k}.wav`,
          mimeType: 'audio/wav',
          buffer: sineWav({ seconds: 30, hz: 220 + k * 20, sampleRate: 8000 }),
        },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    songIds.push(((await res.json()) as { id: string }).id);
  }
  await artist.dispose();
  // The listener's history: two plays.
  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  for (const id of songIds.slice(0, 2)) {
    const res = await listener.post('/api/plays', { data: { song_id: id } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await listener.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  for (const id of songIds) await artist.delete(`/api/songs/${id}`);
  await artist.dispose();
});

const player = (page: Page) => page.getByRole('region', { name: 'Player' });

async function playlistSongs(page: Page, id: string) {
  const res = await page.request.get(`/api/playlists/${id}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { tracks: { song: { id: string; title: string } }[] };
  return body.tracks.map((t) => t.song);
}

test('Generate AI Playlist opens a 20-song mix that plays, and Regenerate refills it', async ({
  page,
}) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Generate AI Playlist' });
  await expect(button).toBeEnabled();
  const generated = page.waitForResponse(
    (r) => r.url().endsWith('/api/recommendations/playlist') && r.request().method() === 'POST',
  );
  await button.click();
  expect((await generated).status()).toBe(201);
  await expect(page).toHaveURL(/\/playlist\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 2, name: /Mix · / })).toBeVisible();
  await expect(page.getByText('Private playlist')).toBeVisible();

  const songs = await playlistSongs(page, id);
  expect(songs).toHaveLength(20);
  expect(new Set(songs.map((s) => s.id)).size).toBe(20);
  for (const played of songIds.slice(0, 2)) expect(songs.map((s) => s.id)).not.toContain(played);
  await expect(page.getByTestId('song-title')).toHaveCount(20);

  await page.getByRole('button', { name: 'Play All' }).click();
  const bar = player(page);
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(bar).toContainText(songs[0]!.title);

  // Regenerate: the same playlist, new songs first.
  const again = page.waitForResponse(
    (r) => r.url().endsWith('/api/recommendations/playlist') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Regenerate' }).click();
  const answer = await again;
  expect(answer.status()).toBe(201);
  expect(((await answer.json()) as { playlist_id: string }).playlist_id).toBe(id);
  const refilled = await playlistSongs(page, id);
  expect(refilled).toHaveLength(20);
  expect(refilled.map((s) => s.id)).not.toEqual(songs.map((s) => s.id));
  await expect(page.getByTestId('song-title').first()).toHaveText(refilled[0]!.title);
});

test('Explore Now shows songs recommended for the listener, playable', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Explore Now' }).click();
  await expect(page).toHaveURL(/\/recommendations$/);
  await expect(page.getByRole('heading', { name: 'Recommended for you', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Picked for you', level: 2 })).toBeVisible();
  const rows = page.getByTestId('recommendation-item');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(20);
  const title = (await rows.first().getByTestId('song-title').textContent())!;
  await rows
    .first()
    .getByRole('button', { name: /^Play / })
    .click();
  await expect(player(page)).toContainText(title);
});
