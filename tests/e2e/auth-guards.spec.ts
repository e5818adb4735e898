import { test, expect, expectToast, LISTENER_STATE } from './support.ts';

test.describe('signed-out visitors', () => {
  for (const path of [
    '/',
    '/browse',
    '/liked',
    '/dashboard',
    '/admin/withdrawals',
    '/playlist/abc',
  ]) {
    test(`${path} redirects to /auth`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    });
  }

  test('the admin approval page sends them to / (and so on to /auth)', async ({ page }) => {
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(new URL(f.url()).pathname);
    });
    await page.goto('/admin/artist-approval');
    await expect(page).toHaveURL(/\/auth$/);
    // Client-side redirects: / is passed through before /auth.
    await expect.poll(() => visited).toContain('/');
  });
});

test.describe('a signed-in visitor', () => {
  test.use({ storageState: LISTENER_STATE });

  test('on /auth is sent to /', async ({ page }) => {
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });
});

test.describe('role screens send a listener to /', () => {
  test.use({ storageState: LISTENER_STATE });

  const cases: Array<[string, string | null]> = [
    ['/podcast-upload', 'Only artists can upload podcasts'],
    ['/artist-revenue', 'Artist access only'],
    ['/admin/withdrawals', 'Admin access only'],
    ['/admin/revenue', 'Admin access only'],
    ['/admin/artist-approval', 'Admin access required'],
    ['/upload', null],
    ['/dashboard', null],
    ['/withdrawal-settings', null],
  ];
  for (const [path, message] of cases) {
    test(`${path}${message ? ` with '${message}'` : ''}`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      if (message) await expectToast(page, message);
      await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    });
  }
});
