import fs from 'node:fs';
import type { PlaywrightWorkerArgs } from '@playwright/test';
import {
  ACCOUNTS_FILE,
  ADMIN_STATE,
  ARTIST_STATE,
  AUTH_DIR,
  E2E_ADMIN,
  E2E_ARTIST,
  expect,
  expectToast,
  fillSignUp,
  LISTENER_STATE,
  openAuth,
  PASSWORD,
  test as setup,
} from './support.ts';

/** Signs in through the API and keeps the cookies; a failure is recorded, not thrown. */
async function signInByApi(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  login: { email: string; password: string },
  role: string,
  statePath: string,
): Promise<{ ok: boolean; error?: string }> {
  const ctx = await playwright.request.newContext({ baseURL });
  try {
    const res = await ctx.post('/api/auth/sign-in', {
      data: { email: login.email, password: login.password },
    });
    if (!res.ok()) return { ok: false, error: `sign-in → ${res.status()} ${await res.text()}` };
    const session = await (await ctx.get('/api/auth/session')).json();
    if (!session.user?.roles?.includes(role)) {
      return {
        ok: false,
        error: `signed in, but roles are ${JSON.stringify(session.user?.roles)}`,
      };
    }
    await ctx.storageState({ path: statePath });
    return { ok: true };
  } finally {
    await ctx.dispose();
  }
}

// The listener is created by the sign-up journey itself (spec: sign-up → lands on /), so the
// suite spends one sign-up fewer: they are rate limited per address (5 an hour).
setup(
  'sign-up lands on / and gives the shared listener session',
  async ({ page, playwright, baseURL }) => {
    fs.mkdirSync(AUTH_DIR, { recursive: true });

    const listener = {
      email: `listener-${Date.now().toString(36)}@canto.test`,
      password: PASSWORD,
      displayName: 'E2E Listener',
    };
    await openAuth(page, 'Sign Up');
    await fillSignUp(page, listener);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, 'Account created successfully!');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Discover Your Perfect Sound' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent Tracks' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Popular Tracks' })).toBeVisible();
    await page.context().storageState({ path: LISTENER_STATE });

    // The admin comes from ADMIN_EMAIL/ADMIN_PASSWORD at server start. A failure here is
    // recorded, not thrown, so listener journeys still run; admin journeys report it.
    const ac = await playwright.request.newContext({ baseURL });
    const signIn = await ac.post('/api/auth/sign-in', { data: E2E_ADMIN });
    let admin: { ok: boolean; error?: string } = { ok: signIn.ok() };
    if (signIn.ok()) {
      const session = await (await ac.get('/api/auth/session')).json();
      if (!session.user?.roles?.includes('admin')) {
        admin = {
          ok: false,
          error: `signed in, but roles are ${JSON.stringify(session.user?.roles)}`,
        };
      }
    } else {
      admin.error = `POST /api/auth/sign-in → ${signIn.status()} ${await signIn.text()}`;
    }
    await ac.storageState({ path: ADMIN_STATE });
    await ac.dispose();

    // The approved artist is made by serve.ts before the server starts (no sign-up spent).
    const artist = await signInByApi(playwright, baseURL, E2E_ARTIST, 'artist', ARTIST_STATE);

    fs.writeFileSync(ACCOUNTS_FILE, JSON.stringify({ listener, admin, artist }, null, 2));
  },
);
