// Revenue (docs/decisions/0029; E2E_PORT 3201): an admin opens /admin/revenue, reads the model,
// calculates the current month ('Calculate Current Month Revenue' → 'Calculating...' → the
// toast) and sees the Last Calculation Results panel, which the next visit shows again.
import { ADMIN_STATE, expect, expectToast, requireAdminSession, test } from './support.ts';
import { seriousAxeViolations } from './axe.ts';

test.use({ storageState: ADMIN_STATE });
test.beforeEach(() => requireAdminSession());

test('an admin calculates the current month and sees the results', async ({ page }) => {
  await page.goto('/admin/revenue');
  await expect(page.getByRole('heading', { level: 1, name: 'Revenue Calculation' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'How revenue is calculated' })).toContainText(
    '$5 per 1,000 impressions',
  );
  const button = page.getByRole('button', { name: 'Calculate Current Month Revenue' });
  await expect(button).toBeEnabled();

  // Hold the answer a moment so the running state is seen.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/admin/revenue/calculate', async (route) => {
    await held;
    await route.continue();
  });
  await button.click();
  await expect(page.getByRole('button', { name: 'Calculating...' })).toBeDisabled();
  release();

  const month = new Date().toISOString().slice(0, 7);
  const answer = await page.waitForResponse('**/api/admin/revenue/calculate');
  const { artistsProcessed } = (await answer.json()) as { artistsProcessed: number };
  await expectToast(page, `Revenue calculated for ${artistsProcessed} artists`);
  const results = page.getByRole('definition');
  await expect(page.getByText('Last Calculation Results')).toBeVisible();
  await expect(page.getByTestId('revenue-month')).toHaveText(month);
  await expect(page.getByTestId('revenue-artists')).toHaveText(String(artistsProcessed));
  await expect(page.getByTestId('revenue-pool')).toHaveText(/^\$\d[\d,]*\.\d\d$/);
  await expect(results).toHaveCount(3);
  expect(await seriousAxeViolations(page)).toEqual([]);

  // The panel comes from the server on the next visit.
  await page.unroute('**/api/admin/revenue/calculate');
  await page.reload();
  await expect(page.getByTestId('revenue-month')).toHaveText(month);
});

test.describe('a refused calculation', () => {
  test.use({ allowedConsoleErrors: [/status of 409/] });

  test('says why', async ({ page }) => {
    await page.route('**/api/admin/revenue/calculate', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'revenue_run_in_progress',
            message: 'A revenue calculation for this month is already running',
          },
        }),
      }),
    );
    await page.goto('/admin/revenue');
    await page.getByRole('button', { name: 'Calculate Current Month Revenue' }).click();
    await expectToast(page, 'Error', 'A revenue calculation for this month is already running');
    await expect(
      page.getByRole('button', { name: 'Calculate Current Month Revenue' }),
    ).toBeEnabled();
  });
});
