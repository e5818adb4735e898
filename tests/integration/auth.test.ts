import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { cookieOf, freshIp, signUp, uniqueEmail } from './auth-helpers.ts';

// Rows through the query builder's raw SQL; count(*) is cast so both drivers return numbers.
async function rows<T>(
  ctx: ReturnType<typeof useTestApp>,
  query: ReturnType<typeof sql>,
): Promise<T[]> {
  const result = (await ctx.db.database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

describe.each(dbKinds)('auth: sign-up and sign-in on %s', (kind) => {
  const ctx = useTestApp(kind);

  describe('sign-up', () => {
    it('creates the account, answers 201 with an AuthSession and sets httpOnly cookies', async () => {
      const { res, payload } = await signUp(ctx.app, {
        email: '  New.Fan@Example.COM ',
        display_name: '  New Fan  ',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        aal: 'aal1',
        next_aal: 'aal1',
        user: {
          email: 'new.fan@example.com',
          display_name: 'New Fan',
          email_verified: false,
          roles: [],
        },
      });
      expect(payload.email).not.toBe(body.user.email);
      expect(body.access_token.split('.')).toHaveLength(3);
      expect(body.refresh_token.length).toBeGreaterThanOrEqual(40);
      const nowSec = Math.floor(ctx.clock.now().getTime() / 1000);
      expect(body.expires_at).toBe(nowSec + 900);

      const access = cookieOf(res, 'canto_access')!;
      const refresh = cookieOf(res, 'canto_refresh')!;
      expect(access).toMatchObject({
        value: body.access_token,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
        maxAge: 900,
      });
      expect(refresh).toMatchObject({
        value: body.refresh_token,
        path: '/api/auth',
        httpOnly: true,
        sameSite: 'Lax',
      });
      expect(refresh.maxAge).toBe(30 * 24 * 3600);
      expect(access.secure).toBeFalsy();
    });

    it('stores a hash of the password and of the refresh token, never the values', async () => {
      const { res, payload } = await signUp(ctx.app, { password: 'plain-text-password' });
      const { user, refresh_token } = res.json();
      const [u] = await rows<{ password_hash: string }>(
        ctx,
        sql`select password_hash from users where id = ${user.id}`,
      );
      expect(u!.password_hash).toMatch(/^\$argon2id\$/);
      expect(u!.password_hash).not.toContain(payload.password);
      const tokens = await rows<{ token_hash: string }>(
        ctx,
        sql`select token_hash from refresh_tokens rt join sessions s on s.id = rt.session_id where s.user_id = ${user.id}`,
      );
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.token_hash).not.toBe(refresh_token);
      expect(tokens[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('creates the pending_artist row when the box is ticked, and only then', async () => {
      const artist = (await signUp(ctx.app, { is_artist: true })).res.json();
      const listener = (await signUp(ctx.app, { is_artist: false })).res.json();
      const unsaid = (await signUp(ctx.app)).res.json();
      expect(artist.user.roles).toEqual(['pending_artist']);
      const roleRows = await rows<{ user_id: string; role: string }>(
        ctx,
        sql`select user_id, role from user_roles where user_id in (${artist.user.id}, ${listener.user.id}, ${unsaid.user.id})`,
      );
      expect(roleRows).toEqual([{ user_id: artist.user.id, role: 'pending_artist' }]);
    });

    it.each([
      [{ email: 'not-an-email' }, 'Invalid email address'],
      [{ password: '12345' }, 'Password must be at least 6 characters'],
      [{ password: 'x'.repeat(73) }, 'Password must be less than 72 characters'],
      [{ display_name: ' x ' }, 'Display name must be at least 2 characters'],
      [{ display_name: 'x'.repeat(51) }, 'Display name must be less than 50 characters'],
      [{ email: 'bad', password: '1', display_name: 'x' }, 'Invalid email address'],
      [{ password: '1', display_name: 'x' }, 'Password must be at least 6 characters'],
    ])('refuses %o with 400 "%s" and stores nothing', async (patch, message) => {
      const email = uniqueEmail('invalid');
      const { res } = await signUp(ctx.app, { email, ...patch });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
      expect(res.cookies).toHaveLength(0);
      const found = await rows<{ n: number }>(
        ctx,
        sql`select count(*)::int as n from users where email = ${email}`,
      );
      expect(found[0]!.n).toBe(0);
    });

    it('answers 409 for an email already registered, in any case, and keeps the first account', async () => {
      const email = uniqueEmail('dup');
      const first = await signUp(ctx.app, { email, display_name: 'First' });
      expect(first.res.statusCode).toBe(201);
      const again = await signUp(ctx.app, {
        email: email.toUpperCase(),
        display_name: 'Second',
        is_artist: true,
      });
      expect(again.res.statusCode).toBe(409);
      expect(again.res.json().error).toMatchObject({
        code: 'duplicate',
        message: 'User already registered',
      });
      const profiles = await rows<{ display_name: string }>(
        ctx,
        sql`select p.display_name from profiles p join users u on u.id = p.user_id where u.email = ${email}`,
      );
      expect(profiles).toEqual([{ display_name: 'First' }]);
      const roles = await rows<{ n: number }>(
        ctx,
        sql`select count(*)::int as n from user_roles r join users u on u.id = r.user_id where u.email = ${email}`,
      );
      expect(roles[0]!.n).toBe(0);
    });
  });

  describe('sign-in', () => {
    it('signs in with the right password, with a new session each time', async () => {
      const { res: up, payload } = await signUp(ctx.app);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: payload.email.toUpperCase(), password: payload.password },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user.id).toBe(up.json().user.id);
      expect(body.refresh_token).not.toBe(up.json().refresh_token);
      expect(cookieOf(res, 'canto_access')?.value).toBe(body.access_token);
      const sessions = await rows<{ n: number }>(
        ctx,
        sql`select count(*)::int as n from sessions where user_id = ${body.user.id}`,
      );
      expect(sessions[0]!.n).toBe(2);
    });

    it('answers a wrong password and an unknown email with byte-identical bodies', async () => {
      const { payload } = await signUp(ctx.app);
      const ip = freshIp();
      const wrong = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: payload.email, password: 'wrong-password' },
        remoteAddress: ip,
      });
      const unknown = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: uniqueEmail('nobody'), password: 'wrong-password' },
        remoteAddress: ip,
      });
      expect(wrong.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(400);
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.json().error).toEqual({
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
      expect(wrong.cookies).toHaveLength(0);
    });

    it('applies the spec §5 sign-in messages', async () => {
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: 'x', password: '1' },
      });
      expect(bad.json().error).toMatchObject({
        code: 'validation_failed',
        message: 'Invalid email address',
      });
      const short = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: 'a@b.co', password: '1' },
      });
      expect(short.json().error.message).toBe('Password must be at least 6 characters');
    });
  });
});
