// Passkeys end to end: Chromium's virtual authenticator (CDP) stands in for Touch ID /
// Windows Hello. WebAuthn needs the page origin to equal PUBLIC_URL (the server's rpID and
// expected origin), and browsers refuse an IP address as the rpID: these journeys run on
// http://localhost:<port>, which is also PUBLIC_URL's default for the server's port.
import type { BrowserContext, Page } from '@playwright/test';
import {
  test,
  expect,
  expectToast,
  openAuth,
  uniqueEmail,
  PASSWORD,
  ownAddress,
} from './support.ts';

/** The configured base URL with 127.0.0.1 spelled localhost (same server, a valid rpID). */
function onLocalhost(baseURL: string | undefined): string | undefined {
  if (!baseURL) return baseURL;
  const url = new URL(baseURL);
  if (url.hostname === '127.0.0.1') url.hostname = 'localhost';
  return url.toString().replace(/\/$/, '');
}

test.use({ baseURL: async ({ baseURL }, use) => use(onLocalhost(baseURL)) });

async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function sessionOf(page: Page) {
  const res = await page.request.get('/api/auth/session');
  expect(res.status()).toBe(200);
  return (await res.json()) as { aal: string; next_aal: string };
}

// One account for the whole file: sign-ups are rate limited per address.
test.describe.configure({ mode: 'serial' });

const account = { email: uniqueEmail('passkey'), displayName: 'Passkey Listener' };
/** The passkey made by the first journey (with its private key), for the second's fresh authenticator. */
let sharedCredential: Record<string, unknown> | undefined;

test('a passkey added on the Security screen raises the session to AAL2, and steps it up again later', async ({
  page,
  context,
}) => {
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: {
      email: account.email,
      password: PASSWORD,
      display_name: account.displayName,
      is_artist: false,
    },
  });
  expect(up.status(), await up.text()).toBe(201);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);

  await page.goto('/settings/security');
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(page.getByText('No security methods yet.')).toBeVisible();
  await expect(page.getByTestId('session-aal')).toHaveText(/AAL1/);

  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expectToast(page, 'Passkey added');
  const row = page.getByTestId('mfa-factor');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Passkey');
  await expect(row).toContainText('Verified');
  await expect(page.getByTestId('session-aal')).toHaveText(/AAL2/);
  expect(await sessionOf(page)).toMatchObject({ aal: 'aal2', next_aal: 'aal2' });

  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);

  // A new password-only session of this account is aal1 and must step up on the screen.
  const again = await page.request.post('/api/auth/sign-in', {
    data: { email: account.email, password: PASSWORD },
  });
  expect(again.status()).toBe(200);
  expect(await again.json()).toMatchObject({ aal: 'aal1', next_aal: 'aal2' });
  // Wherever the app asks for the second step (this screen, or /auth if the shell sends
  // aal1 sessions there), the passkey answers it.
  await page.reload();
  const challenge = page.getByTestId('mfa-challenge');
  await expect(challenge.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await challenge.getByRole('button', { name: 'Use passkey' }).click();
  await expect.poll(async () => (await sessionOf(page)).aal).toBe('aal2');
  await page.goto('/settings/security');
  await expect(page.getByTestId('session-aal')).toHaveText(/AAL2/);
  await expect(page.getByTestId('mfa-challenge')).toHaveCount(0);
  const { credentials: after } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after[0]?.signCount).toBeGreaterThan(credentials[0]!.signCount);
  // Exported after its last use, so its counter is where the server expects it.
  sharedCredential = { ...after[0] };
});

test('signing in with a passkey account asks for the passkey before the app opens', async ({
  page,
  context,
}) => {
  // Each test has its own browser context: the same passkey is loaded into its authenticator.
  test.skip(!sharedCredential, 'needs the passkey made by the first journey');
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  await cdp.send('WebAuthn.addCredential', {
    authenticatorId,
    credential: sharedCredential as never,
  });

  await openAuth(page, 'Sign In');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  const challenge = page.getByTestId('mfa-challenge');
  await expect(challenge.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  expect(await sessionOf(page)).toMatchObject({ aal: 'aal1', next_aal: 'aal2' });
  await challenge.getByRole('button', { name: 'Use passkey' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await sessionOf(page)).toMatchObject({ aal: 'aal2' });
});
