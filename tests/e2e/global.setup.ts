import fs from 'node:fs';
import { test as setup, expect } from '@playwright/test';
import {
  ACCOUNTS_FILE,
  ADMIN_STATE,
  AUTH_DIR,
  E2E_ADMIN,
  LISTENER_STATE,
  PASSWORD,
} from './support.ts';

setup('shared sessions: a listener and the admin', async ({ playwright, baseURL }) => {
  fs.mkdirSync(AUTH_DIR, { recursive: true });

  const listener = {
    email: `listener-${Date.now().toString(36)}@canto.test`,
    password: PASSWORD,
    displayName: 'E2E Listener',
  };
  const lc = await playwright.request.newContext({ baseURL });
  const up = await lc.post('/api/auth/sign-up', {
    data: {
      email: listener.email,
      password: listener.password,
      display_name: listener.displayName,
      is_artist: false,
    },
  });
  expect(up.status(), await up.text()).toBe(201);
  await lc.storageState({ path: LISTENER_STATE });
  await lc.dispose();

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

  fs.writeFileSync(ACCOUNTS_FILE, JSON.stringify({ listener, admin }, null, 2));
});
