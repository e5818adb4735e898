import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REFRESH_REUSE_INTERVAL_MS } from '../../src/core/auth/refresh-rotation.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';

// PGlite has one connection, so there the parallel requests queue; the real races need the
// PostgreSQL server, where each exchange locks its family's session row. The answers must be
// the same on both.
describe.each(dbKinds)('refresh rotation under concurrency on %s', (kind) => {
  const ctx = useTestApp(kind);

  const refresh = (refresh_token: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token } });
  const session = (accessToken: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  /** The family's tokens: how many, how many live, and the parents of the live ones. */
  async function family(userId: string) {
    const result = (await ctx.db.database.db.execute(
      sql`select rt.parent_id, rt.rotated_at is null as live from refresh_tokens rt join sessions s on s.id = rt.session_id where s.user_id = ${userId}`,
    )) as unknown as { rows: Array<{ parent_id: string | null; live: boolean }> };
    const live = result.rows.filter((r) => r.live);
    return {
      total: result.rows.length,
      live: live.length,
      liveParents: new Set(live.map((r) => r.parent_id)).size,
    };
  }

  // Changed with the refresh reuse interval (docs/decisions/0002): this used to expect one
  // success, 9 × 401 and a revoked family — the user signed out by their own retries. Within the
  // reuse interval every repeat gets a token of the current generation instead.
  it('answers all of 10 parallel refreshes with one token and keeps the session alive', async () => {
    const { res } = await signUp(ctx.app);
    const { refresh_token, user } = res.json();
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(refresh_token)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const pairs = results.map((r) => r.json());
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(10);
    expect(pairs.every((p) => p.refresh_token !== refresh_token)).toBe(true);
    // One exchange and nine siblings of its child: one generation, nothing forked.
    expect(await family(user.id)).toEqual({ total: 11, live: 10, liveParents: 1 });
    // Whichever answer the client kept, it works: every access token, then the last refresh.
    for (const pair of pairs) expect((await session(pair.access_token)).statusCode).toBe(200);
    const last = pairs.at(-1)!;
    const next = await refresh(last.refresh_token);
    expect(next.statusCode).toBe(200);
    expect((await session(next.json().access_token)).statusCode).toBe(200);
    // That exchange retired the whole generation, its nine siblings too.
    expect(await family(user.id)).toEqual({ total: 12, live: 1, liveParents: 1 });
  });

  it('still revokes the family when the old token comes back after the reuse interval', async () => {
    const { res } = await signUp(ctx.app);
    const { refresh_token } = res.json();
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(refresh_token)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const last = results.at(-1)!.json();
    ctx.clock.advance(REFRESH_REUSE_INTERVAL_MS);
    const late = await Promise.all(Array.from({ length: 3 }, () => refresh(refresh_token)));
    expect(late.map((r) => r.statusCode)).toEqual([401, 401, 401]);
    expect(late.map((r) => r.json().error.code)).toContain('auth_refresh_reused');
    expect((await session(last.access_token)).statusCode).toBe(401);
    expect((await refresh(last.refresh_token)).statusCode).toBe(401);
  });

  it('never forks a family across many rounds, even when siblings are exchanged at once', async () => {
    for (let round = 0; round < 5; round++) {
      const { res } = await signUp(ctx.app);
      const { refresh_token, user } = res.json();
      const first = await Promise.all(Array.from({ length: 4 }, () => refresh(refresh_token)));
      expect(first.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(await family(user.id)).toEqual({ total: 5, live: 4, liveParents: 1 });
      // Every sibling exchanged at the same instant: one of them rotates the generation, the
      // others are repeats within the interval. Still one live generation afterwards.
      const second = await Promise.all(first.map((r) => refresh(r.json().refresh_token)));
      expect(second.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      const after = await family(user.id);
      expect(after).toEqual({ total: 9, live: 4, liveParents: 1 });
      for (const r of second) expect((await session(r.json().access_token)).statusCode).toBe(200);
    }
  });
});
