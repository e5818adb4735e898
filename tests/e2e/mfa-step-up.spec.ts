// Once an account has a verified factor, the server refuses its password-only sessions
// everywhere but the challenge (403 insufficient_aal; docs/decisions/0002, "aal2 on every route").
// A tab that signed in before the factor was added elsewhere must then show the challenge, not a
// page of errors.
import { request as newApiContext } from '@playwright/test';
import { generate } from 'otplib';
import { test, expect, sidebar, uniqueEmail, PASSWORD, ownAddress } from './support.ts';

// The refused API call itself is what starts the challenge.
test.use({ allowedConsoleErrors: [/status of 403/] });

const code = (secret: string, offsetS = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetS });

/** Another device: signs in with the password, adds an authenticator app, verifies it. */
async function verifyTotpElsewhere(baseURL: string | undefined, email: string): Promise<string> {
  const device = await newApiContext.newContext({ baseURL });
  try {
    const signIn = await device.post('/api/auth/sign-in', { data: { email, password: PASSWORD } });
    expect(signIn.status()).toBe(200);
    const enrolled = await device.post('/api/auth/factors', { data: { factor_type: 'totp' } });
    expect(enrolled.status(), await enrolled.text()).toBe(201);
    const { id, totp } = (await enrolled.json()) as { id: string; totp: { secret: string } };
    const ch = await device.post(`/api/auth/factors/${id}/challenge`, { data: {} });
    // The previous time step (within the server's tolerance), so the tab's code is a later one.
    const verified = await device.post(`/api/auth/factors/${id}/verify`, {
      data: { challenge_id: (await ch.json()).id, code: await code(totp.secret, -30) },
    });
    expect(verified.status(), await verified.text()).toBe(200);
    return totp.secret;
  } finally {
    await device.dispose();
  }
}

test('a factor verified on another device sends an open aal1 tab to the challenge', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('step-up');
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: { email, password: PASSWORD, display_name: 'Step-up Listener', is_artist: false },
  });
  expect(up.status(), await up.text()).toBe(201);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

  const secret = await verifyTotpElsewhere(baseURL, email);

  // This tab's next API call is refused, and the app shows the challenge instead. That call
  // may be one the app makes on its own (the bell catching up, the premium status) before
  // the click's: the sidebar is then already gone, which is as right.
  const challenge = page.getByTestId('mfa-challenge');
  await Promise.race([
    challenge.waitFor(),
    sidebar(page)
      .getByRole('link', { name: 'Browse' })
      .click()
      .catch(() => undefined),
  ]);
  await expect(challenge.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  await challenge.getByLabel('Verification code').fill(await code(secret));
  await challenge.getByRole('button', { name: 'Verify' }).click();
  // Back where the tab was going: Browse if the click was refused, else Home.
  await expect(page).toHaveURL(/\/(browse)?$/);
  await expect(page.getByRole('heading', { level: 1, name: /^(Home|Browse)$/ })).toBeVisible();
  const session = await page.request.get('/api/auth/session');
  expect(await session.json()).toMatchObject({ aal: 'aal2', next_aal: 'aal2' });
});
