// The artist dashboard (spec §2): the fixture artist uploads a song through the API, the shared
// listener plays it three times (stream records through the API, as the player writes them),
// and the artist sees the plays today in the Daily Streams and Unique Listeners charts and in
// their tables for screen readers, the figures and Top Songs; the screen passes axe. A
// listener who opens /dashboard is sent to /. Then the admin calculates the month and the artist
// sees it on /artist-revenue with its CSV statements, the balance and the withdrawal history.
import {
  ADMIN_STATE,
  ARTIST_STATE,
  expect,
  LISTENER_STATE,
  requireAdminSession,
  requireArtistSession,
  test,
} from './support.ts';
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
    // The tier, or that no month is calculated yet (another journey may have run one).
    await expect(overview.getByText(/No month calculated yet|% artist share/)).toBeVisible();
    const top = page.getByRole('region', { name: 'Top Songs' });
    await expect(top.getByText(title)).toBeVisible();

    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

test.describe('the revenue screen, as the artist', () => {
  test.use({ storageState: ARTIST_STATE });

  test('shows the calculated month with its CSV statements, the balance and the history', async ({
    page,
    playwright,
    baseURL,
  }) => {
    // The admin calculates the current month, which holds the three plays above.
    requireAdminSession();
    const admin = await playwright.request.newContext({ baseURL, storageState: ADMIN_STATE });
    const run = await admin.post('/api/admin/revenue/calculate');
    expect(run.status(), await run.text()).toBe(200);
    const { month } = (await run.json()) as { month: string };
    await admin.dispose();

    await page.goto('/artist-revenue');
    const balance = page.getByRole('region', { name: 'Balance' });
    await expect(balance.getByText('Available')).toBeVisible();
    await expect(balance.getByText(/^\$\d[\d,]*\.\d\d$/).first()).toBeVisible();
    const months = page.getByRole('region', { name: 'Monthly Revenue' });
    const name = new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await expect(months.getByRole('rowheader', { name })).toBeVisible();
    const csv = months.getByRole('link', { name: `CSV statement for ${name}` });
    const statement = await page.request.get((await csv.getAttribute('href'))!);
    expect(statement.status()).toBe(200);
    expect(statement.headers()['content-type']).toContain('text/csv');
    expect(await statement.text()).toContain(month);
    await expect(
      months.getByRole('link', { name: `${month.slice(0, 4)} CSV statement` }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Withdrawal History' })).toBeVisible();
    await expect(page.getByText('Failed to load revenue data')).toHaveCount(0);
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
