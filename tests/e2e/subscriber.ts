// A journey's own premium subscriber (PAYMENTS=local, the e2e server's default): signed up with
// an address of its own (sign-ups are rate limited), then subscribed through the test-mode
// checkout's API; premium.spec.ts walks the same checkout through its screens.
import type { Page } from '@playwright/test';
import { expect, ownAddress, PASSWORD, uniqueEmail } from './support.ts';

export async function signUpSubscriber(page: Page, prefix: string, displayName: string) {
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: {
      email: uniqueEmail(prefix),
      password: PASSWORD,
      display_name: displayName,
      is_artist: false,
    },
  });
  expect(up.status(), await up.text()).toBe(201);
  const checkout = await page.request.post('/api/premium/checkout');
  expect(checkout.status(), await checkout.text()).toBe(200);
  const session = new URL((await checkout.json()).url, 'http://x').searchParams.get('session');
  const confirmed = await page.request.post('/api/premium/local/checkout/confirm', {
    data: { session },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  expect((await (await page.request.get('/api/subscription')).json()).subscribed).toBe(true);
}
