// Withdrawals (docs/decisions/0029): an artist with a calculated month (fixture-accounts.ts)
// requests a withdrawal, an admin approves it on /admin/withdrawals, the artist's bell gets
// the notice live and the balance has dropped. Other roles are turned away from both screens.
import type { Page } from '@playwright/test';
import { E2E_EARNER } from './accounts.ts';
import { seriousAxeViolations } from './axe.ts';
import {
  ADMIN_STATE,
  expect,
  expectToast,
  LISTENER_STATE,
  requireAdminSession,
  signIn,
  test,
} from './support.ts';

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

/** '$1,234.56' → cents. */
const centsOf = (text: string | null) =>
  Math.round(Number((text ?? '').replace(/[$,]/g, '')) * 100);

test.beforeEach(() => requireAdminSession());

test('an artist requests a withdrawal, the admin approves it, the artist is notified and the balance drops', async ({
  browser,
  baseURL,
}) => {
  // axe needs a page from browser.newContext() (axe.ts).
  const page = await (await browser.newContext({ baseURL })).newPage();
  await signIn(page, E2E_EARNER.email, E2E_EARNER.password);
  await page.goto('/withdrawal-settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdrawal Settings' })).toBeVisible();
  await expect(page.getByTestId('available')).toHaveText(/^\$/);
  const balanceBefore = centsOf(await page.getByTestId('balance').textContent());
  const availableBefore = centsOf(await page.getByTestId('available').textContent());
  expect(availableBefore).toBeGreaterThanOrEqual(2500);
  await expect(
    page.getByText('Withdrawals are processed within 3 to 5 business days'),
  ).toBeVisible();
  await expect(
    page.getByTestId('my-withdrawal').or(page.getByText('No withdrawal requests yet')).first(),
  ).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The form checks what it can before asking the server.
  await page.getByLabel('Payment method').selectOption('paypal');
  await page.getByLabel('Amount (USD)').fill('9.99');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByText('Minimum withdrawal amount is $10')).toBeVisible();
  await expect(page.getByText('Please enter your PayPal email')).toBeVisible();

  await page.getByLabel('PayPal email').fill('earner@example.com');
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expectToast(page, "Withdrawal request submitted! You'll be notified once processed.");
  await expect(page.getByTestId('available')).toHaveText(
    `$${((availableBefore - 2500) / 100).toFixed(2)}`.replace(/\B(?=(\d{3})+(?!\d))/g, ','),
  );
  const mine = page.getByTestId('my-withdrawal').first();
  await expect(mine).toContainText('$25.00');
  await expect(mine).toContainText('PayPal e•••@example.com');
  await expect(mine).toContainText('pending');
  // Shown masked, never whole, after entry.
  await expect(page.getByText('earner@example.com')).toHaveCount(0);
  await expect(bell(page)).toHaveAttribute('data-live', 'open');
  const unreadBefore = (
    (await (await page.request.get('/api/me/notifications')).json()) as {
      unread_count: number;
    }
  ).unread_count;

  const admin = await (await browser.newContext({ baseURL, storageState: ADMIN_STATE })).newPage();
  await admin.goto('/admin/withdrawals');
  await expect(
    admin.getByRole('heading', { level: 1, name: 'Withdrawal Management' }),
  ).toBeVisible();
  const row = admin
    .getByTestId('admin-withdrawal')
    .filter({ hasText: E2E_EARNER.displayName })
    .filter({ hasText: 'pending' })
    .first();
  await expect(row).toContainText('$25.00');
  await expect(row).toContainText('PayPal e•••@example.com');
  expect(await seriousAxeViolations(admin)).toEqual([]);
  await row.getByRole('button', { name: /^Review/ }).click();
  const dialog = admin.getByRole('dialog', { name: 'Review withdrawal request' });
  await dialog.getByLabel(/Notes/).fill('Paid by PayPal');
  await dialog.getByRole('button', { name: 'Approve & Pay' }).click();
  await expectToast(admin, 'Withdrawal approved');
  await expect(dialog).toHaveCount(0);
  const done = admin.getByTestId('admin-withdrawal').filter({ hasText: 'Paid by PayPal' }).first();
  await expect(done).toContainText('completed');
  await expect(done.getByRole('button', { name: /^Review/ })).toHaveCount(0);
  await admin.context().close();

  // Live: the bell rises without a reload.
  await expect(bell(page)).toHaveAccessibleName(`Notifications, ${unreadBefore + 1} unread`);
  await bell(page).click();
  await expect(page.getByText('Withdrawal completed').first()).toBeVisible();
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(page.getByTestId('balance')).toHaveText(/^\$/);
  expect(centsOf(await page.getByTestId('balance').textContent())).toBe(balanceBefore - 2500);
  await expect(page.getByTestId('my-withdrawal').first()).toContainText('completed');
  await page.context().close();
});

test('listeners are turned away from both withdrawal screens', async ({ browser, baseURL }) => {
  const page = await (
    await browser.newContext({ baseURL, storageState: LISTENER_STATE })
  ).newPage();
  await page.goto('/admin/withdrawals');
  await expect(page).toHaveURL(/\/$/);
  await expectToast(page, 'Admin access only');
  await page.goto('/withdrawal-settings');
  await expect(page).toHaveURL(/\/$/);
  await page.context().close();
});
