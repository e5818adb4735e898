import { test, expect, LISTENER_STATE } from './support.ts';
import { seriousAxeViolations } from './axe.ts';

// axe needs a page from browser.newContext() (axe.ts).
test('/auth has no serious or critical axe violations', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByLabel('Display name')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});

test('the password reset and verification pages have no serious or critical axe violations', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/forgot-password');
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.goto('/reset-password?token=some-token');
  await expect(page.getByLabel('Confirm new password')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.goto('/reset-password');
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});

test('/ has no serious or critical axe violations', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByText('No tracks available yet').first()).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});
