import { createLocalJWKSet, jwtVerify } from 'jose';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REFRESH_REUSE_INTERVAL_MS } from '../../src/core/auth/refresh-rotation.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { cookieOf, freshIp, signUp } from './auth-helpers.ts';

// Rows through the query builder's raw SQL; count(*) is cast so both drivers return numbers.
async function rows<T>(
  ctx: ReturnType<typeof useTestApp>,
  query: ReturnType<typeof sql>,
): Promise<T[]> {
  const result = (await ctx.db.database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

describe.each(dbKinds)('auth: sessions, sign-out, refresh, JWKS on %s', (kind) => {
  const ctx = useTestApp(kind);

  describe('session', () => {
    it('says returning: false only in the session sign-up opened, true in every later one', async () => {
      const { res, payload } = await signUp(ctx.app, { display_name: 'New Listener' });
      const first = res.json();
      expect(first.returning).toBe(false);
      const session = (token: string) =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/auth/session',
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await session(first.access_token)).json().returning).toBe(false);
      // A refresh keeps the session: still the first one.
      const refreshed = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: first.refresh_token },
      });
      expect(refreshed.json().returning).toBe(false);

      ctx.clock.advance(1_000);
      const later = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: payload.email, password: payload.password },
        remoteAddress: freshIp(),
      });
      expect(later.statusCode).toBe(200);
      expect(later.json().returning).toBe(true);
      expect((await session(later.json().access_token)).json().returning).toBe(true);
      // The first session stays what it was.
      expect((await session(refreshed.json().access_token)).json().returning).toBe(false);
    });

    it('answers GET /session with the cookie and with a Bearer token, 401 without', async () => {
      const { res } = await signUp(ctx.app, { display_name: 'Session User' });
      const { access_token, expires_at, user } = res.json();
      const byCookie = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        cookies: { canto_access: access_token },
      });
      expect(byCookie.statusCode).toBe(200);
      expect(byCookie.json()).toEqual({
        user,
        aal: 'aal1',
        next_aal: 'aal1',
        returning: false,
        expires_at,
      });
      const byBearer = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(byBearer.json()).toEqual(byCookie.json());
      const user2 = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(user2.json()).toEqual(user);
      const none = await ctx.app.inject({ method: 'GET', url: '/api/auth/session' });
      expect(none.statusCode).toBe(401);
      const forged = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { authorization: `Bearer ${access_token.slice(0, -4)}AAAA` },
      });
      expect(forged.statusCode).toBe(401);
    });

    it('reads roles afresh, so an approval shows on the next load', async () => {
      const { res } = await signUp(ctx.app, { is_artist: true });
      const { access_token, user } = res.json();
      await ctx.db.database.db.execute(
        sql`update user_roles set role = 'artist' where user_id = ${user.id} and role = 'pending_artist'`,
      );
      const session = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        cookies: { canto_access: access_token },
      });
      expect(session.json().user.roles).toEqual(['artist']);
    });

    it('reports next_aal aal2 when the user has a verified factor', async () => {
      const { res } = await signUp(ctx.app);
      const { access_token, user } = res.json();
      await ctx.db.database.db.execute(
        sql`insert into mfa_factors (user_id, factor_type, status, friendly_name) values (${user.id}, 'totp', 'verified', 'phone')`,
      );
      const session = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        cookies: { canto_access: access_token },
      });
      expect(session.json()).toMatchObject({ aal: 'aal1', next_aal: 'aal2' });
    });

    it('stops accepting an access token after its 15 minutes', async () => {
      const { res } = await signUp(ctx.app);
      const { access_token } = res.json();
      const headers = { authorization: `Bearer ${access_token}` };
      ctx.clock.advance(14 * 60_000);
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/auth/session', headers })).statusCode,
      ).toBe(200);
      ctx.clock.advance(60_000);
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/auth/session', headers })).statusCode,
      ).toBe(401);
    });

    // Another process writes sessions and factors without this one's services; the
    // database's announcement (migration 0029) is all this process hears of it.
    it('follows a session or factor written by another writer once the database announces it', async () => {
      const { res } = await signUp(ctx.app, { display_name: 'Elsewhere' });
      const { access_token, user } = res.json();
      const headers = { authorization: `Bearer ${access_token}` };
      const session = () => ctx.app.inject({ method: 'GET', url: '/api/auth/session', headers });
      const settle = { timeout: 5_000, interval: 20 };
      expect((await session()).json().next_aal).toBe('aal1');

      // A verified factor appears: the aal1 session must now step up for most routes.
      await ctx.db.database.db.execute(
        sql`insert into mfa_factors (user_id, factor_type, status) values (${user.id}, 'totp', 'verified')`,
      );
      await expect.poll(async () => (await session()).json().next_aal, settle).toBe('aal2');
      const profile = () => ctx.app.inject({ method: 'GET', url: '/api/me/stats', headers });
      expect((await profile()).statusCode).toBe(403);

      // The session is raised elsewhere (a second factor answered there).
      await ctx.db.database.db.execute(
        sql`update sessions set aal = 'aal2' where user_id = ${user.id}`,
      );
      await expect.poll(async () => (await session()).json().aal, settle).toBe('aal2');
      expect((await profile()).statusCode).toBe(200);

      // …and ended there.
      await ctx.db.database.db.execute(
        sql`update sessions set revoked_at = now(), revoked_reason = 'test' where user_id = ${user.id}`,
      );
      await expect.poll(async () => (await session()).statusCode, settle).toBe(401);
    });
  });

  describe('sign-out', () => {
    it('revokes the session: the old access token and the refresh token stop working', async () => {
      const { res } = await signUp(ctx.app);
      const { access_token, refresh_token } = res.json();
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        cookies: { canto_access: access_token, canto_refresh: refresh_token },
      });
      expect(out.statusCode).toBe(204);
      expect(cookieOf(out, 'canto_access')).toMatchObject({ value: '', path: '/' });
      expect(cookieOf(out, 'canto_refresh')).toMatchObject({ value: '', path: '/api/auth' });
      const session = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(session.statusCode).toBe(401);
      const refresh = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token },
      });
      expect(refresh.statusCode).toBe(401);
      const revoked = await rows<{ revoked_reason: string }>(
        ctx,
        sql`select revoked_reason from sessions where user_id = ${res.json().user.id}`,
      );
      expect(revoked).toEqual([{ revoked_reason: 'sign_out' }]);
    });

    it('revokes by the refresh cookie alone once the access token has expired', async () => {
      const { res } = await signUp(ctx.app);
      const { access_token, refresh_token } = res.json();
      ctx.clock.advance(16 * 60_000);
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        cookies: { canto_access: access_token, canto_refresh: refresh_token },
      });
      expect(out.statusCode).toBe(204);
      const refresh = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        cookies: { canto_refresh: refresh_token },
      });
      expect(refresh.statusCode).toBe(401);
    });

    it('is idempotent without any credential', async () => {
      const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-out' });
      expect(out.statusCode).toBe(204);
    });
  });

  describe('refresh', () => {
    it('rotates: the cookie gives a new pair in the same session, the old access token stays valid', async () => {
      const { res } = await signUp(ctx.app);
      const first = res.json();
      ctx.clock.advance(1000);
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: {},
        cookies: { canto_refresh: first.refresh_token },
      });
      expect(r.statusCode).toBe(200);
      const second = r.json();
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.user).toEqual(first.user);
      expect(cookieOf(r, 'canto_refresh')?.value).toBe(second.refresh_token);
      const sids = await rows<{ n: number }>(
        ctx,
        sql`select count(distinct session_id)::int as n from refresh_tokens rt join sessions s on s.id = rt.session_id where s.user_id = ${first.user.id}`,
      );
      expect(sids[0]!.n).toBe(1);
      const third = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: second.refresh_token },
      });
      expect(third.statusCode).toBe(200);
    });

    it('accepts a refresh with no body at all (API clients)', async () => {
      const { res } = await signUp(ctx.app);
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        cookies: { canto_refresh: res.json().refresh_token },
      });
      expect(r.statusCode).toBe(200);
    });

    // Changed with the refresh reuse interval (docs/decisions/0002): a second use right away is now
    // a retry (next test); only after the reuse interval is it reuse.
    it('treats a second use of a token after the reuse interval as reuse: 401 and the whole family dies', async () => {
      const { res } = await signUp(ctx.app);
      const old = res.json().refresh_token;
      const rotated = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: old },
      });
      const fresh = rotated.json();
      ctx.clock.advance(REFRESH_REUSE_INTERVAL_MS);
      const reuse = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: old },
      });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().error.code).toBe('auth_refresh_reused');
      // A dead refresh token is dropped from the browser with the answer.
      expect(cookieOf(reuse, 'canto_refresh')).toMatchObject({ value: '', path: '/api/auth' });
      const next = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: fresh.refresh_token },
      });
      expect(next.statusCode).toBe(401);
      expect(next.json().error.code).toBe('auth_session_expired');
      const access = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { authorization: `Bearer ${fresh.access_token}` },
      });
      expect(access.statusCode).toBe(401);
    });

    it('answers a repeat within the reuse interval with the current generation, revoking nothing', async () => {
      const refresh = (refresh_token: string) =>
        ctx.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token } });
      const session = (accessToken: string) =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/auth/session',
          headers: { authorization: `Bearer ${accessToken}` },
        });
      const { res } = await signUp(ctx.app);
      const t0 = res.json().refresh_token;
      const t1 = (await refresh(t0)).json();
      ctx.clock.advance(REFRESH_REUSE_INTERVAL_MS - 1000);
      // The client never saw t1 and retries with t0: a sibling of t1, in cookie and body.
      const retry = await refresh(t0);
      expect(retry.statusCode).toBe(200);
      const sibling = retry.json();
      expect(sibling.refresh_token).not.toBe(t1.refresh_token);
      expect(sibling.user).toEqual(t1.user);
      expect(cookieOf(retry, 'canto_refresh')?.value).toBe(sibling.refresh_token);
      expect((await session(sibling.access_token)).statusCode).toBe(200);
      expect((await session(t1.access_token)).statusCode).toBe(200);
      // The chain moves on within the interval: t0 and t1 both follow it to the newest.
      const t2 = (await refresh(sibling.refresh_token)).json();
      ctx.clock.advance(500);
      expect((await refresh(t1.refresh_token)).statusCode).toBe(200);
      expect((await refresh(t0)).statusCode).toBe(200);
      expect((await refresh(t2.refresh_token)).statusCode).toBe(200);
      // t0 was exchanged REFRESH_REUSE_INTERVAL_MS ago now: reuse, however recent its heirs.
      ctx.clock.advance(500);
      const late = await refresh(t0);
      expect(late.statusCode).toBe(401);
      expect(late.json().error.code).toBe('auth_refresh_reused');
      expect((await session(t2.access_token)).statusCode).toBe(401);
      const revoked = await rows<{ revoked_reason: string }>(
        ctx,
        sql`select revoked_reason from sessions where user_id = ${t1.user.id}`,
      );
      expect(revoked).toEqual([{ revoked_reason: 'refresh_token_reuse' }]);
    });

    it('does not bring a signed-out session back within the reuse interval', async () => {
      const { res } = await signUp(ctx.app);
      const t0 = res.json().refresh_token;
      const t1 = (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          payload: { refresh_token: t0 },
        })
      ).json();
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { authorization: `Bearer ${t1.access_token}` },
      });
      expect(out.statusCode).toBe(204);
      const retry = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: t0 },
      });
      expect(retry.statusCode).toBe(401);
      expect(retry.json().error.code).toBe('auth_session_expired');
    });

    it('refuses an unknown token, no token, and a session idle for 30 days', async () => {
      const unknown = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: 'nope' },
      });
      expect(unknown.statusCode).toBe(401);
      const none = await ctx.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: {} });
      expect(none.statusCode).toBe(401);
      const { res } = await signUp(ctx.app);
      ctx.clock.advance(30 * 24 * 3600_000 + 1000);
      const stale = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: res.json().refresh_token },
      });
      expect(stale.statusCode).toBe(401);
      expect(stale.json().error.code).toBe('auth_session_expired');
    });
  });

  describe('JWKS', () => {
    it('publishes public keys that verify an issued access token', async () => {
      const { res } = await signUp(ctx.app);
      const { access_token, user } = res.json();
      for (const url of ['/api/auth/jwks.json', '/.well-known/jwks.json']) {
        const jwks = await ctx.app.inject({ method: 'GET', url });
        expect(jwks.statusCode).toBe(200);
        const doc = jwks.json();
        expect(doc.keys.length).toBeGreaterThan(0);
        for (const key of doc.keys) {
          expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
          expect(key.d).toBeUndefined();
        }
        const { payload, protectedHeader } = await jwtVerify(access_token, createLocalJWKSet(doc), {
          issuer: ctx.env.publicUrl,
          currentDate: ctx.clock.now(),
        });
        expect(protectedHeader.alg).toBe('ES256');
        expect(protectedHeader.kid).toBe(doc.keys[0].kid);
        expect(payload).toMatchObject({ sub: user.id, aal: 'aal1' });
        expect(typeof payload.sid).toBe('string');
        expect(payload.exp! - payload.iat!).toBe(900);
      }
    });

    it('keeps the private key sealed in the database', async () => {
      const keys = await rows<{ private_jwk_encrypted: string; public_jwk: string }>(
        ctx,
        sql`select private_jwk_encrypted, public_jwk from signing_keys`,
      );
      expect(keys).toHaveLength(1);
      expect(keys[0]!.private_jwk_encrypted).toMatch(/^v1\./);
      expect(keys[0]!.private_jwk_encrypted).not.toContain('"d"');
      expect(JSON.parse(keys[0]!.public_jwk).d).toBeUndefined();
    });
  });
});
