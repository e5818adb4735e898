import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

// docs/decisions/0002: besides the 30-day inactivity timeout, a session ends a fixed time after
// sign-in (SESSION_MAX_LIFETIME_DAYS), however often it is refreshed.
function lifetimeClient(ctx: TestContext) {
  return {
    /** A new session; `signedInAt` is the server clock at sign-up. */
    async start() {
      const signedInAt = ctx.clock.now().getTime();
      const { res } = await signUp(ctx.app);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      return {
        signedInAt,
        userId: body.user.id as string,
        refresh: body.refresh_token as string,
        access: body.access_token as string,
      };
    },
    refresh(refreshToken: string) {
      return ctx.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: refreshToken },
      });
    },
    session(accessToken: string) {
      return ctx.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { authorization: `Bearer ${accessToken}` },
      });
    },
    /** The stored expiry of the user's session. */
    async expiresAt(userId: string): Promise<number> {
      const result = (await ctx.db.database.db.execute(
        sql`select expires_at from sessions where user_id = ${userId}`,
      )) as unknown as { rows: { expires_at: string | Date }[] };
      expect(result.rows).toHaveLength(1);
      return new Date(result.rows[0]!.expires_at).getTime();
    },
  };
}

describe.each(dbKinds)('session lifetime on %s', (kind) => {
  describe('default: 90 days', () => {
    const ctx = useTestApp(kind);

    it('keeps a session refreshed every 20 days alive to day 90 after sign-in, then ends it', async () => {
      expect(ctx.env.sessionMaxLifetimeDays).toBe(90);
      const api = lifetimeClient(ctx);
      const s = await api.start();
      let refresh = s.refresh;
      for (const day of [20, 40, 60, 80]) {
        ctx.clock.advance(s.signedInAt + day * DAY_MS - ctx.clock.now().getTime());
        const res = await api.refresh(refresh);
        expect(res.statusCode, `day ${day}: ${res.body}`).toBe(200);
        refresh = res.json().refresh_token;
        expect((await api.session(res.json().access_token)).statusCode).toBe(200);
        // Sliding, as before, while the cap is further away than the idle time.
        expect(await api.expiresAt(s.userId)).toBe(
          Math.min(s.signedInAt + (day + 30) * DAY_MS, s.signedInAt + 90 * DAY_MS),
        );
      }
      // Five minutes before day 90: the refresh works but no longer slides 30 days.
      const end = s.signedInAt + 90 * DAY_MS;
      ctx.clock.advance(end - 5 * 60_000 - ctx.clock.now().getTime());
      const last = await api.refresh(refresh);
      expect(last.statusCode, last.body).toBe(200);
      refresh = last.json().refresh_token;
      const access = last.json().access_token as string;
      expect(await api.expiresAt(s.userId)).toBe(end);
      expect((await api.session(access)).statusCode).toBe(200);

      // One millisecond before the end the fresh access token still works; at the end neither
      // it (its own 15 minutes not yet over) nor the refresh token does.
      ctx.clock.advance(end - 1 - ctx.clock.now().getTime());
      expect((await api.session(access)).statusCode).toBe(200);
      ctx.clock.advance(1);
      expect((await api.session(access)).statusCode).toBe(401);
      const after = await api.refresh(refresh);
      expect(after.statusCode).toBe(401);
      expect(after.json().error.code).toBe('auth_session_expired');
    });

    it('still ends a session after 30 days without a refresh', async () => {
      const api = lifetimeClient(ctx);
      const s = await api.start();
      ctx.clock.advance(30 * DAY_MS);
      const res = await api.refresh(s.refresh);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('auth_session_expired');
    });
  });

  describe('SESSION_MAX_LIFETIME_DAYS=7', () => {
    const ctx = useTestApp(kind, { SESSION_MAX_LIFETIME_DAYS: '7' });

    it('ends a session refreshed daily on day 7, and gives a first expiry of 7 days', async () => {
      const api = lifetimeClient(ctx);
      const s = await api.start();
      expect(await api.expiresAt(s.userId)).toBe(s.signedInAt + 7 * DAY_MS);
      let refresh = s.refresh;
      for (let day = 1; day < 7; day++) {
        ctx.clock.advance(DAY_MS);
        const res = await api.refresh(refresh);
        expect(res.statusCode, `day ${day}: ${res.body}`).toBe(200);
        refresh = res.json().refresh_token;
        expect(await api.expiresAt(s.userId)).toBe(s.signedInAt + 7 * DAY_MS);
      }
      ctx.clock.advance(DAY_MS);
      const res = await api.refresh(refresh);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('auth_session_expired');
    });
  });
});
