import fs from 'node:fs';
import { test as setup, expect } from '@playwright/test';
import { ACCOUNTS_FILE, ADMIN_STATE, AUTH_DIR, E2E_ADMIN, LISTENER_STATE, PASSWORD } from './support.ts';

setup('shared sessions: a listener and the admin', async ({ playwright, baseURL }) => {
  fs.mkdirSync(AUTH_DIR, { recursive: true });

  const listener = {
    email: `listener-${Date.now().toString(36)}@canto.test`,
    password: PASSWORD,
    displayName: 'E2E Listener',
  };
  const lc = await playwright.request.newContext({ baseURL });
  const up = await lc.post('/api/auth/sign-up', {
    data: { email: listener.email, password: listener.password, display_name: listener.displayName, is_artist: false },
  });
  expect(up.status(), await up.text()).toBe(201);
  await lc.storageState({ path: LISTENER_STATE });
  await lc.dispose();

  const ac = await playwright.request.newContext({ baseURL });
  const signIn = await ac.post('/api/auth/sign-in', { data: E2E_ADMIN });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const session = await (await ac.get('/api/auth/session')).json();
  expect(session.user.roles).toContain('admin');
  await ac.storageState({ path: ADMIN_STATE });
  await ac.dispose();

  fs.writeFileSync(ACCOUNTS_FILE, JSON.stringify({ listener }, null, 2));
});
