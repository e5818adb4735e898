// Tips (docs/decisions/0029) in the browser, PAYMENTS=local (the e2e server's default): the shared
// listener opens the fixture artist's profile, 'Tip Artist' → $7.50 with a note → 'Send Tip' lands
// on the test-mode checkout, Confirm there pays it; the tip then counts in the artist's month. A
// listener's own profile and a non-artist's show no Tip Artist.
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  LISTENER_STATE,
  requireArtistSession,
  test,
} from './support.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: LISTENER_STATE });

let artistId: string;

test.beforeAll(async ({ playwright, baseURL }) => {
  requireArtistSession();
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  artistId = (await (await artist.get('/api/auth/session')).json()).user.id;
  await artist.dispose();
});

/** The artist's tip revenue this month, as their revenue screen's API shows it. */
async function artistTipRevenue(
  playwright: import('@playwright/test').PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
): Promise<number> {
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  const res = await artist.get('/api/artist/revenue');
  expect(res.status(), await res.text()).toBe(200);
  const month = new Date().toISOString().slice(0, 7);
  const { items } = (await res.json()) as { items: { month: string; tip_revenue: number }[] };
  await artist.dispose();
  return items.find((m) => m.month === month)?.tip_revenue ?? 0;
}

test("a listener tips an artist from the profile and the tip counts in the artist's month", async ({
  page,
  playwright,
  baseURL,
}) => {
  const before = await artistTipRevenue(playwright, baseURL);
  await page.goto(`/profile/${artistId}`);
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile.getByRole('heading', { name: E2E_ARTIST.displayName })).toBeVisible();
  await page.getByRole('button', { name: 'Tip Artist' }).click();

  const dialog = page.getByRole('dialog', { name: `Tip ${E2E_ARTIST.displayName}` });
  const amount = dialog.getByLabel('Amount (USD)');
  // Out of range: said in the dialog, nothing sent.
  await amount.fill('100.01');
  await dialog.getByRole('button', { name: 'Send Tip' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A tip must be between $1 and $100');
  await expect(amount).toBeFocused();

  await amount.fill('7.50');
  await dialog.getByLabel('Message (optional)').fill('Loved the set');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Send Tip' }).click();

  await expect(page).toHaveURL(/\/tips\/checkout\?tip=[0-9a-f-]{36}$/);
  const tipId = new URL(page.url()).searchParams.get('tip')!;
  await expect(page.getByRole('note')).toContainText('Test mode.');
  await expect(
    page.getByRole('heading', { name: `Tip ${E2E_ARTIST.displayName} $7.50` }),
  ).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Thank you! Your $7.50 tip to ${E2E_ARTIST.displayName} was sent.`,
  );

  const tip = await page.request.get(`/api/tips/${tipId}`);
  expect(await tip.json()).toMatchObject({ status: 'paid', amount_cents: 750 });
  // The artist's month: $7.50 less the 5 % fee (37.5 cents, half up: 38).
  expect(await artistTipRevenue(playwright, baseURL)).toBe(before + 712);

  // Back on the profile: still there to tip again; one's own profile has none.
  await page.getByRole('link', { name: 'Back to profile' }).click();
  await expect(page.getByRole('button', { name: 'Tip Artist' })).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tip Artist' })).toHaveCount(0);
});
