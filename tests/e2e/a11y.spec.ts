import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, LISTENER_STATE } from './support.ts';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

// @axe-core/playwright needs a page from browser.newContext().
test('/auth has no serious or critical axe violations', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByLabel('Display name')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});

test('/ has no serious or critical axe violations', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, storageState: LISTENER_STATE });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByText('No tracks available yet').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});
