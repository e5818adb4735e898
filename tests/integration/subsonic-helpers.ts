import { expect } from 'vitest';
import type { App } from '../../src/server/app.ts';
import { signUp } from './auth-helpers.ts';

/** A signed-up listener with one Subsonic app password, as a phone app signs in. */
export type PhoneAccount = {
  userId: string;
  email: string;
  /** The app password (`p`, or the secret behind `t` + `s`). */
  password: string;
  headers: { authorization: string };
};

/** Signs up a listener and makes them an app password through /api/me/subsonic/passwords. */
export async function phoneAccount(app: App, displayName = 'Someone'): Promise<PhoneAccount> {
  const { res, payload } = await signUp(app, { display_name: displayName });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ user: { id: string }; access_token: string }>();
  const headers = { authorization: `Bearer ${body.access_token}` };
  const created = await app.inject({
    method: 'POST',
    url: '/api/me/subsonic/passwords',
    headers,
    payload: { name: 'Phone' },
  });
  expect(created.statusCode, created.body).toBe(201);
  return {
    userId: body.user.id,
    email: payload.email,
    password: created.json<{ password: string }>().password,
    headers,
  };
}
