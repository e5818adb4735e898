import type { Browser, Page } from '@playwright/test';
import {
  test,
  expect,
  expectToast,
  ADMIN_STATE,
  requireAdminSession,
  sidebar,
  signUp,
  uniqueEmail,
} from './support.ts';

// Before any sign-up: those are rate limited, so don't spend one when no admin exists.
test.beforeEach(() => requireAdminSession());

async function asAdmin(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const page = await (await browser.newContext({ baseURL, storageState: ADMIN_STATE })).newPage();
  await page.goto('/');
  // Admins find their screens in the sidebar's Admin group.
  const nav = sidebar(page);
  for (const name of ['Withdrawals', 'Revenue Calculation', 'Ads'])
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await nav.getByRole('link', { name: 'Artist Approval', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Artist Approval' })).toBeVisible();
  return page;
}

function requestRow(page: Page, name: string) {
  return page.getByTestId('artist-request').filter({ hasText: name });
}

test('approving an artist request gives the user the artist screens', async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Approve Me ${Date.now().toString(36)}`;
  await signUp(page, { displayName: name, email: uniqueEmail('artist'), artist: true });
  // Pending: still a listener.
  await expect(sidebar(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

  const admin = await asAdmin(browser, baseURL);
  const row = requestRow(admin, name);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Approve ${name}` }).click();
  await expectToast(admin, 'Artist approved successfully!');
  await expect(row).toHaveCount(0);
  await admin.context().close();

  await page.reload();
  const nav = sidebar(page);
  await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Revenue', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload Music' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload Podcast' })).toBeVisible();

  await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Artist Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // The top bar's link (a new artist's empty dashboard offers one too).
  await page.getByRole('banner').getByRole('link', { name: 'Upload Podcast' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Upload Podcast' })).toBeVisible();
});

test('rejecting an artist request leaves a listener', async ({ page, browser, baseURL }) => {
  const name = `Reject Me ${Date.now().toString(36)}`;
  await signUp(page, { displayName: name, email: uniqueEmail('reject'), artist: true });

  const admin = await asAdmin(browser, baseURL);
  const row = requestRow(admin, name);
  // Reject asks first: Cancel leaves the request as it was.
  const confirm = admin.getByRole('dialog', { name: 'Reject this artist request?' });
  await row.getByRole('button', { name: `Reject ${name}` }).click();
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Reject ${name}` }).click();
  await confirm.getByRole('button', { name: 'Reject', exact: true }).click();
  await expectToast(admin, 'Artist request rejected');
  await expect(row).toHaveCount(0);
  await admin.context().close();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await page.goto('/upload');
  await expect(page).toHaveURL(/\/$/);
});

test('the queue shows its empty state once nothing is pending', async ({ browser, baseURL }) => {
  const admin = await asAdmin(browser, baseURL);
  // Clear whatever earlier journeys left behind, then expect the empty state.
  const rows = admin.getByTestId('artist-request');
  while ((await rows.count()) > 0) {
    const first = rows.first();
    await first.getByRole('button', { name: /^Reject / }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Reject', exact: true }).click();
    await expectToast(admin, 'Artist request rejected');
    await expect(first.getByText('Processing...')).toHaveCount(0);
  }
  await expect(admin.getByText('No pending artist requests')).toBeVisible();
  await admin.context().close();
});
