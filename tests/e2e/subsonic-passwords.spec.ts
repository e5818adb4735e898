// Subsonic app passwords as a person manages them (docs/decisions/0034): made and named under
// Security, shown once, good for a phone app's sign-in at /rest, and dead the moment it is
// revoked.
import type { APIRequestContext } from '@playwright/test';
import { seriousAxeViolations } from './axe.ts';
import { test, expect, uniqueEmail, PASSWORD, ownAddress } from './support.ts';

type Envelope = { 'subsonic-response': { status: string; error?: { code: number } } };

/** What a phone app asks first: ping, with the email and the app password. */
async function phonePing(request: APIRequestContext, email: string, secret: string) {
  const query = new URLSearchParams({ u: email, p: secret, c: 'journey', v: '1.16.1', f: 'json' });
  const response = await request.get(`/rest/ping.view?${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as Envelope)['subsonic-response'];
}

test('a listener makes an app password, a phone signs in with it, and revoking it stops the phone', async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = uniqueEmail('subsonic');
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: { email, password: PASSWORD, display_name: 'Phone Listener', is_artist: false },
  });
  expect(up.status(), await up.text()).toBe(201);
  // The phone is another client: no cookies of the browser's.
  const phone = await playwright.request.newContext({ baseURL });

  await page.goto('/settings/security');
  await expect(page.getByText('No app passwords yet.')).toBeVisible();
  // The account password is never an app's: a phone that tries it is turned away.
  expect(await phonePing(phone, email, PASSWORD)).toMatchObject({
    status: 'failed',
    error: { code: 40 },
  });

  await page.getByLabel('Name').fill('My phone');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(
    page.getByText('Password for "My phone": copy it now, it will not be shown again.'),
  ).toBeVisible();
  const secret = (await page.getByTestId('app-password-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[0-9a-f]{56}$/);
  const list = page.getByRole('list', { name: 'Subsonic app passwords' });
  await expect(list.getByText('My phone')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);

  expect(await phonePing(phone, email, secret)).toMatchObject({ status: 'ok' });
  // Shown once: after Done, and after a reload, the secret is nowhere on the page.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await expect(list.getByText('My phone')).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  await page.getByRole('button', { name: 'Revoke My phone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke "My phone"?' });
  await expect(
    dialog.getByText('Apps signed in with this password stop working at once.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No app passwords yet.')).toBeVisible();

  expect(await phonePing(phone, email, secret)).toMatchObject({
    status: 'failed',
    error: { code: 40 },
  });
  await phone.dispose();
});
