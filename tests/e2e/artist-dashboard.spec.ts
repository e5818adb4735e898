// The artist dashboard (spec §2): the fixture artist uploads a song through the API, the shared
// listener plays it three times (stream records through the API, as the player writes them),
// and the artist sees the plays today in the Daily Streams and Unique Listeners charts and in
// their tables for screen readers, the figures and Top Songs; the screen passes axe. A
// listener who opens /dashboard is sent to /.
import { ARTIST_STATE, expect, LISTENER_STATE, requireArtistSession, test } from './support.ts';
import { deleteArtistSongs, uploadArtistTones } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.describe.configure({ mode: 'serial' });

const title = `Dashboard ${Date.now().toString(36)}`;
let songIds: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  requireArtistSession();
  songIds = await uploadArtistTones(playwright, baseURL, [title], 20);
  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  for (let i = 0; i < 3; i++) {
    const res = await listener.post('/api/plays', { data: { song_id: songIds[0] } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await listener.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  await deleteArtistSongs(playwright, baseURL, songIds);
});

test.describe('as the artist', () => {
  test.use({ storageState: ARTIST_STATE });

  test("sees today's streams in the charts and their tables, the figures and top songs", async ({
    page,
  }) => {
    await page.goto('/dashboard');
    const streams = page.getByRole('figure', { name: 'Daily Streams' });
    await expect(streams).toBeVisible();
    // The chart is drawn (recharts' SVG) and hidden from screen readers, which get the table.
    await expect(streams.locator('svg.recharts-surface')).toBeVisible();
    await expect(streams.locator('.recharts-area-area')).toHaveCount(1);
    const table = streams.getByRole('table', { name: 'Daily Streams' });
    await expect(table.getByRole('row')).toHaveCount(31);
    const today = table.getByRole('row').last();
    expect(Number(await today.getByRole('cell').textContent())).toBeGreaterThanOrEqual(3);

    const listeners = page.getByRole('figure', { name: 'Unique Listeners' });
    await expect(listeners.locator('svg.recharts-surface')).toBeVisible();
    const listenerRow = listeners.getByRole('table', { name: 'Unique Listeners' }).getByRole('row');
    await expect(listenerRow).toHaveCount(31);
    expect(Number(await listenerRow.last().getByRole('cell').textContent())).toBeGreaterThanOrEqual(
      1,
    );

    const overview = page.getByRole('region', { name: 'Overview' });
    await expect(overview.getByText('Recent Streams')).toBeVisible();
    await expect(overview.getByText('Estimated Revenue')).toBeVisible();
    await expect(overview.getByText('No month calculated yet')).toBeVisible();
    const top = page.getByRole('region', { name: 'Top Songs' });
    await expect(top.getByText(title)).toBeVisible();

    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

test.describe('as a listener', () => {
  test.use({ storageState: LISTENER_STATE });

  test('opening /dashboard goes to Home', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/$/);
  });
});
