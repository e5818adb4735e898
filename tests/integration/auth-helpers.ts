import { expect } from 'vitest';
import type { App } from '../../src/server/app.ts';

// Each sign-up comes from its own address so the sign-up rate limit stays out of the way.
let counter = 0;
export function freshIp(): string {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
}

let userCounter = 0;
export function uniqueEmail(prefix = 'user'): string {
  userCounter += 1;
  return `${prefix}${userCounter}-${Date.now().toString(36)}@example.com`;
}

export async function signUp(
  app: App,
  body: Partial<{ email: string; password: string; display_name: string; is_artist: boolean }> = {},
) {
  const payload = {
    email: uniqueEmail(),
    password: 'secret-pass',
    display_name: 'Test User',
    ...body,
  };
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up',
    payload,
    remoteAddress: freshIp(),
  });
  return { res, payload };
}

/** A new session of an existing account, signed in from a fresh address: its access token. */
export async function signIn(app: App, email: string, password: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: { email, password },
    remoteAddress: freshIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

export function cookieOf<C extends { name: string }>(
  res: { cookies: C[] },
  name: string,
): C | undefined {
  return res.cookies.find((c) => c.name === name);
}
