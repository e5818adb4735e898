// Shared steps for the browser journeys: a console guard, UI sign-up/in/out, toasts.
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

export { E2E_ADMIN, E2E_ARTIST } from './accounts.ts';
export const PASSWORD = 'listen-pass-1';

// Written by global.setup.ts: cookies of a signed-in listener, admin and artist, and logins.
// One folder per E2E_PORT: runs on other ports (other servers, other signing keys) in the
// same checkout would otherwise overwrite them mid-run and sign these journeys out.
export const AUTH_DIR = path.resolve('.tmp/e2e-auth', process.env.E2E_PORT ?? '3100');
export const LISTENER_STATE = path.join(AUTH_DIR, 'listener.json');
export const ADMIN_STATE = path.join(AUTH_DIR, 'admin.json');
export const ARTIST_STATE = path.join(AUTH_DIR, 'artist.json');
export const ACCOUNTS_FILE = path.join(AUTH_DIR, 'accounts.json');

export function sharedListener(): { email: string; password: string; displayName: string } {
  return JSON.parse(fs.readFileSync(ACCOUNTS_FILE, 'utf8')).listener;
}

/** Throws with the setup's finding when the admin could not sign in. */
export function requireAdminSession(): void {
  const { admin } = JSON.parse(fs.readFileSync(ACCOUNTS_FILE, 'utf8'));
  if (!admin?.ok) throw new Error(`No admin session (ADMIN_EMAIL bootstrap): ${admin?.error}`);
}

/** Throws with the setup's finding when the fixture artist could not sign in. */
export function requireArtistSession(): void {
  const { artist } = JSON.parse(fs.readFileSync(ACCOUNTS_FILE, 'utf8'));
  if (!artist?.ok)
    throw new Error(`No artist session (tests/e2e/fixture-accounts.ts): ${artist?.error}`);
}

let seq = 0;
/** A fresh address per call, unique across runs against the same server. */
export function uniqueEmail(prefix: string): string {
  seq += 1;
  return `${prefix}-${Date.now().toString(36)}-${seq}@canto.test`;
}

// The browser logs every non-2xx fetch; a 401 from the session probe while signed out and a
// 404 from endpoints not built yet are expected answers, not bugs.
const expectedConsole = [/Failed to load resource: the server responded with a status of 40[14]/];

export const test = base.extend<{ consoleErrors: string[]; allowedConsoleErrors: RegExp[] }>({
  /** Extra console errors a journey expects (e.g. the 400 of a wrong password). */
  allowedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const allowed = [...expectedConsole, ...allowedConsoleErrors];
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        if (!allowed.some((re) => re.test(text))) errors.push(text);
      });
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      await use(errors);
      expect(errors, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The visible toast with this title (and description, when given). */
export async function expectToast(page: Page, title: string, description?: string) {
  let toast = page.locator('[data-sonner-toast]').filter({ hasText: title });
  if (description) toast = toast.filter({ hasText: description });
  await expect(toast.first()).toBeVisible();
}

export async function openAuth(page: Page, tab: 'Sign In' | 'Sign Up') {
  await page.goto('/auth');
  await page.getByRole('tab', { name: tab }).click();
}

export async function fillSignUp(
  page: Page,
  v: { displayName: string; email: string; password: string; artist?: boolean },
) {
  await page.getByLabel('Display name').fill(v.displayName);
  await page.getByLabel('Email').fill(v.email);
  await page.getByLabel('Password').fill(v.password);
  if (v.artist) await page.getByLabel('Request artist status (upload music & podcasts)').check();
}

export async function signUp(
  page: Page,
  v: { displayName: string; email: string; password?: string; artist?: boolean },
) {
  await openAuth(page, 'Sign Up');
  await fillSignUp(page, { ...v, password: v.password ?? PASSWORD });
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectToast(
    page,
    v.artist
      ? 'Account created! Your artist request is pending admin approval.'
      : 'Account created successfully!',
  );
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await openAuth(page, 'Sign In');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectToast(page, 'Signed in successfully!');
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
}

export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

/**
 * Headers that give an API request an address of its own (TEST-NET-2, RFC 5737) through the
 * e2e server's trusted proxy setting (serve.ts): a journey's sign-up then has its own rate
 * limit bucket instead of the one every browser request shares.
 */
export function ownAddress(): Record<string, string> {
  return { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 254)}` };
}
