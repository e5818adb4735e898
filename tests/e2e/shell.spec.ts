import {
  test,
  expect,
  expectToast,
  LISTENER_STATE,
  sharedListener,
  sidebar,
  signIn,
  signOut,
} from './support.ts';

const listenerEntries = [
  'Home',
  'Browse',
  'Podcasts',
  'Search',
  'Your Library',
  'Premium',
  'Profile',
  'Following',
  'AI Music',
  'Liked Songs',
  'Recently Played',
  'Downloads',
  'Your Stats',
];

test.describe('a listener', () => {
  test.use({ storageState: LISTENER_STATE });
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });

  test('sees the Main and Personal groups but no artist entries', async ({ page }) => {
    const nav = sidebar(page);
    for (const name of listenerEntries) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // An action, not a page: it opens the Create Playlist dialog over the current screen.
    await expect(nav.getByRole('button', { name: 'Create Playlist', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Revenue' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Artist Approval' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Ads', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Upload Music' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Upload Podcast' })).toHaveCount(0);
  });

  test('the active sidebar entry has aria-current="page"', async ({ page }) => {
    const nav = sidebar(page);
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await nav.getByRole('link', { name: 'Browse', exact: true }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Browse' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Browse', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).not.toHaveAttribute(
      'aria-current',
    );
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);

    await nav.getByRole('link', { name: 'Your Library', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your Library' })).toBeVisible();
    await expect(nav.locator('[aria-current="page"]')).toHaveText('Your Library');
  });

  test('every screen of spec §2 renders inside the shell', async ({ page }) => {
    const screens: Array<[string, string]> = [
      ['/browse', 'Browse'],
      ['/podcasts', 'Podcasts'],
      ['/search', 'Search'],
      ['/playlists', 'Your Library'],
      ['/playlist/123', 'Playlist'],
      ['/liked', 'Liked Songs'],
      ['/recently-played', 'Recently Played'],
      ['/stats', 'Your Listening Stats'],
      ['/premium', 'Premium'],
      ['/profile', 'Profile'],
      ['/profile/00000000-0000-4000-8000-000000000000', 'Profile'],
      ['/following', 'Following'],
      ['/notifications', 'Notifications'],
      ['/ai-music', 'AI Music Creator'],
      ['/recommendations', 'Recommended for you'],
    ];
    for (const [path, title] of screens) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('main')).toBeVisible();
    }
  });

  test('the home screen: banner actions and empty sections', async ({ page }) => {
    // An empty catalogue has nothing to put in a mix: the failure is said, nothing is made.
    await page.getByRole('button', { name: 'Generate AI Playlist' }).click();
    await expectToast(page, 'Failed to generate playlist', 'There are no songs to recommend yet');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('No tracks available yet')).toHaveCount(2);
    await page.getByRole('link', { name: 'Explore Now' }).click();
    await expect(page).toHaveURL(/\/recommendations$/);
    // The screen's own empty state (the toast above may still be saying the same words).
    await expect(
      page.getByRole('main').getByText('There are no songs to recommend yet'),
    ).toBeVisible();
  });

  test('the bell menu links to /notifications', async ({ page }) => {
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('menuitem', { name: 'View all notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
  });

  test('the session survives a reload', async ({ page }) => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });
});

test('sign in, then sign out: back on /auth and the session is gone', async ({ page }) => {
  const { email, password } = sharedListener();
  await signIn(page, email, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await signOut(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
});

test('the not-found screen', async ({ page }) => {
  await page.goto('/this/does-not-exist');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  // Signed out, Home in turn sends the visitor to /auth.
  await expect(page).toHaveURL(/\/auth$/);
});
