import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, signUp, uniqueEmail } from './support.ts';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

// @axe-core/playwright needs a page from browser.newContext().
test('/auth has no serious or critical axe violations', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByLabel('Display name')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});

test('/ has no serious or critical axe violations', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUp(page, { displayName: 'Axe Listener', email: uniqueEmail('axe') });
  // Let the success toast go so the scan sees the screen itself.
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
  await expect(page.getByText('No tracks available yet').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});
