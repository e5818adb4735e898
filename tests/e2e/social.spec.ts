// Profiles and follows (docs/decisions/0020), as the shared listener: open the fixture artist's
// profile, follow (the count rises, toast 'Following'), find the artist on /following and unfollow
// there down to the empty state; then edit one's own profile: Cancel restores name and bio, Save
// Changes (with an avatar) shows 'Profile updated successfully' and HTML stays text.
import type { Page } from '@playwright/test';
import {
  ARTIST_STATE,
  E2E_ARTIST,
  expect,
  expectToast,
  LISTENER_STATE,
  requireArtistSession,
  sidebar,
  test,
} from './support.ts';
import { coverPng } from './media.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: LISTENER_STATE });

let artistId: string;
let listenerName: string;

test.beforeAll(async ({ playwright, baseURL }) => {
  requireArtistSession();
  const artist = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  artistId = (await (await artist.get('/api/auth/session')).json()).user.id;
  await artist.dispose();
  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  listenerName = (await (await listener.get('/api/me/profile')).json()).display_name;
  await listener.dispose();
});

// The shared listener keeps its name for the other journeys.
test.afterAll(async ({ playwright, baseURL }) => {
  const listener = await playwright.request.newContext({ baseURL, storageState: LISTENER_STATE });
  await listener.patch('/api/me/profile', { data: { display_name: listenerName, bio: null } });
  await listener.dispose();
});

const followers = async (page: Page) =>
  Number((await page.getByTestId('follower-count').textContent())?.split(' ')[0]);

test('follow the artist from their profile, see them on /following, unfollow there', async ({
  page,
}) => {
  // Whatever another journey left: the shared listener starts not following the artist.
  expect((await page.request.delete(`/api/follows/${artistId}`)).ok()).toBe(true);
  await page.goto(`/profile/${artistId}`);
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile.getByRole('heading', { name: E2E_ARTIST.displayName })).toBeVisible();
  // Another's profile: Follow, never Edit Profile; the Songs tab first.
  await expect(page.getByRole('button', { name: 'Edit Profile' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Songs' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: /^Uploaded Songs \(\d+\)$/ })).toBeVisible();
  const before = await followers(page);

  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expectToast(page, 'Following');
  await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();
  const label = before + 1 === 1 ? '1 follower' : `${before + 1} followers`;
  await expect(page.getByTestId('follower-count')).toHaveText(label);
  // The count comes from the server on a reload too.
  await page.reload();
  await expect(page.getByTestId('follower-count')).toHaveText(label);
  await page.getByRole('tab', { name: 'Stats' }).click();
  await expect(page.getByText('Total Plays')).toBeVisible();
  await expect(page.getByText('Member Since')).toBeVisible();
  await expect(page.getByText(/^[A-Z][a-z]+ \d{4}$/)).toBeVisible();
  expect(await seriousAxeViolations(page, 'main')).toEqual([]);

  await sidebar(page).getByRole('link', { name: 'Following' }).click();
  await expect(page).toHaveURL(/\/following$/);
  await expect(page.getByRole('heading', { name: 'Following', level: 2 })).toBeVisible();
  await expect(page.getByTestId('following-count')).toHaveText('1 artist');
  const card = page.getByTestId('followed-user').filter({ hasText: E2E_ARTIST.displayName });
  await expect(card).toContainText(label);
  expect(await seriousAxeViolations(page, 'main')).toEqual([]);

  // The name opens the profile.
  await card.getByRole('link', { name: E2E_ARTIST.displayName }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${artistId}$`));
  await page.goBack();

  await page
    .getByTestId('followed-user')
    .filter({ hasText: E2E_ARTIST.displayName })
    .getByRole('button', { name: 'Unfollow' })
    .click();
  await expectToast(page, 'Unfollowed successfully');
  await expect(page.getByText('Not following anyone yet')).toBeVisible();
  await page.getByRole('link', { name: 'Browse Artists' }).click();
  await expect(page).toHaveURL(/\/browse$/);

  await page.goto(`/profile/${artistId}`);
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  await expect(page.getByTestId('follower-count')).toHaveText(
    before === 1 ? '1 follower' : `${before} followers`,
  );
});

test('edit one’s own profile: Cancel restores, Save Changes saves', async ({ page }) => {
  await page.goto('/');
  await sidebar(page).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile.getByRole('heading', { name: listenerName })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Follow$|^Unfollow$/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByLabel('Display name').fill('Someone Else');
  await page.getByLabel('Bio').fill('Not saved');
  await page.getByLabel('Avatar').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: await coverPng(96),
  });
  await expect(page.getByRole('img', { name: 'Chosen avatar' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(profile.getByRole('heading', { name: listenerName })).toBeVisible();
  await expect(page.getByText('Not saved')).toHaveCount(0);
  // Opening the form again shows what is saved, and no chosen image.
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await expect(page.getByLabel('Display name')).toHaveValue(listenerName);
  await expect(page.getByLabel('Bio')).toHaveValue('');
  await expect(page.getByRole('img', { name: 'Chosen avatar' })).toHaveCount(0);
  await expect(page.getByLabel('Bio')).toHaveAttribute('rows', '4');

  const bio = '<b>Loud</b> & proud\nsecond line';
  await page.getByLabel('Display name').fill('  Edited Listener  ');
  await page.getByLabel('Bio').fill(bio);
  await page.getByLabel('Avatar').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: await coverPng(96),
  });
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Profile updated successfully');
  await expect(profile.getByRole('heading', { name: 'Edited Listener' })).toBeVisible();
  // The bio's HTML is shown as the text typed.
  await expect(profile.getByText('<b>Loud</b> & proud')).toBeVisible();
  await expect(profile.locator('b')).toHaveCount(0);
  await expect(profile.locator('img[src^="/media/cover-art/"]')).toBeVisible();

  // An own listener profile has no upload call to action.
  await expect(page.getByText('No songs uploaded yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload Your First Song' })).toHaveCount(0);
  expect(await seriousAxeViolations(page, 'main')).toEqual([]);
});
