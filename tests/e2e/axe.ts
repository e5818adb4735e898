// The journeys' one accessibility check: axe's WCAG 2.0/2.1 A and AA and best-practice rules
// over the page (or only the parts `include` names), its serious and critical findings as
// readable lines, so `expect(...).toEqual([])` says what failed where. @axe-core/playwright
// needs a page from browser.newContext().
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export async function seriousAxeViolations(page: Page, ...include: string[]): Promise<string[]> {
  // A toast on its way out fades through colours axe would flag: let it go first.
  await page
    .locator('[data-sonner-toast][data-visible="false"], [data-sonner-toast][data-removed="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  for (const selector of include) builder.include(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
