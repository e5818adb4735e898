import { request as apiRequest } from '@playwright/test';
import { mailedLink } from './mail-sink.ts';
import {
  test,
  expect,
  expectToast,
  openAuth,
  ownAddress,
  PASSWORD,
  signOut,
  uniqueEmail,
} from './support.ts';

// Keep in step with serve.ts: the mailbox is the server's, by port.
const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
const RECOVER_MESSAGE = 'If an account exists for this email, a password reset link has been sent.';

// A wrong password and a spent link are answered 400, as they should be.
test.use({ allowedConsoleErrors: [/status of 400/] });

test('a forgotten password: link mailed, new password set, signed in, every other session ended', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('reset');
  // Another device, signed in before the reset.
  const device = await apiRequest.newContext({ baseURL });
  try {
    const up = await device.post('/api/auth/sign-up', {
      headers: ownAddress(),
      data: { email, password: PASSWORD, display_name: 'Reset Listener', is_artist: false },
    });
    expect(up.status(), await up.text()).toBe(201);
    expect((await device.get('/api/auth/session')).status()).toBe(200);

    // Forgot password? on the sign-in form, with what was typed carried over.
    await openAuth(page, 'Sign In');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Forgot your password?' }),
    ).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);

    // An address without an account gets the very same answer.
    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText(RECOVER_MESSAGE);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText(RECOVER_MESSAGE);

    // The link from the mailbox opens 'Set a new password'.
    const link = await mailedLink(E2E_PORT, email, '/reset-password');
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
    // Checked as at sign-up, with the same messages; the link survives a refused try.
    await page.getByLabel('New password', { exact: true }).fill('12345');
    await page.getByLabel('Confirm new password').fill('12345');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectToast(page, 'Validation Error', 'Password must be at least 6 characters');
    await page.getByLabel('New password', { exact: true }).fill('x'.repeat(73));
    await page.getByLabel('Confirm new password').fill('x'.repeat(73));
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectToast(page, 'Validation Error', 'Password must be less than 72 characters');
    await page.getByLabel('New password', { exact: true }).fill('a-new-password');
    await page.getByLabel('Confirm new password').fill('another-one');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectToast(page, 'Validation Error', 'Passwords do not match');

    await page.getByLabel('Confirm new password').fill('a-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, 'Your password has been changed. You are signed in.');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

    // The other device was signed out by the server.
    expect((await device.get('/api/auth/session')).status()).toBe(401);
    expect((await device.post('/api/auth/refresh')).status()).toBe(401);

    // The old password is refused, the new one signs in.
    await signOut(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Error', 'Invalid login credentials');
    await expect(page).toHaveURL(/\/auth$/);
    await page.getByLabel('Password').fill('a-new-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, 'Signed in successfully!');

    // The link is spent: it says so and offers a new one.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('third-password');
    await page.getByLabel('Confirm new password').fill('third-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    const alert = page.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'Link expired or invalid' })).toBeVisible();
    await alert.getByRole('link', { name: 'Request a new link' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  } finally {
    await device.dispose();
  }
});

test('the verification link says the email is verified, and a bad link says it is not', async ({
  page,
}) => {
  const email = uniqueEmail('verify');
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: { email, password: PASSWORD, display_name: 'Verify Listener', is_artist: false },
  });
  expect(up.status(), await up.text()).toBe(201);
  expect((await up.json()).user.email_verified).toBe(false);

  const link = await mailedLink(E2E_PORT, email, '/verify-email');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Email verification' })).toBeVisible();
  const status = page.getByRole('status');
  await expect(status.getByRole('heading', { name: 'Email verified' })).toBeVisible();
  await expect(status).toContainText('Thanks! Your email address is confirmed.');
  expect((await (await page.request.get('/api/auth/user')).json()).email_verified).toBe(true);
  await status.getByRole('link', { name: 'Continue to Canto' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

  // Opened again while signed in: already confirmed, not an error.
  await page.goto(link);
  await expect(status).toContainText('Your email address is already confirmed.');

  // Signed out, a bad link: says what happened and where to go.
  await page.context().clearCookies();
  await page.goto('/verify-email?token=not-a-real-token');
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { name: 'Link expired or invalid' })).toBeVisible();
  await alert.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('an expired verification link offers a new one, which verifies', async ({ page }) => {
  const email = uniqueEmail('resend');
  const up = await page.request.post('/api/auth/sign-up', {
    headers: ownAddress(),
    data: { email, password: PASSWORD, display_name: 'Resend Listener', is_artist: false },
  });
  expect(up.status(), await up.text()).toBe(201);
  const first = await mailedLink(E2E_PORT, email, '/verify-email');

  // Signed in with an unconfirmed address, a dead link: the page offers a fresh one.
  await page.goto('/verify-email?token=an-expired-token');
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { name: 'Link expired or invalid' })).toBeVisible();
  await alert.getByRole('button', { name: 'Send a new link' }).click();
  await expect(page.getByText(`A new link is on its way to ${email}`)).toBeVisible();

  let fresh = first;
  await expect
    .poll(async () => (fresh = await mailedLink(E2E_PORT, email, '/verify-email')))
    .not.toBe(first);
  await page.goto(fresh);
  await expect(
    page.getByRole('status').getByRole('heading', { name: 'Email verified' }),
  ).toBeVisible();
});
