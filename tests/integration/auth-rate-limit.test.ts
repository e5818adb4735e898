import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { freshIp, signUp, uniqueEmail } from './auth-helpers.ts';

// Counts the app's calls to the real password hasher: whether a request ran argon2 is then
// observable without timing.
const hasher = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../src/server/security/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/security/passwords.ts')>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hasher.calls += 1;
      return real.hashPassword(password);
    },
  };
});

const MINUTE = 60_000;

async function query<T>(ctx: TestContext, text: ReturnType<typeof sql>): Promise<T[]> {
  return ((await ctx.db.database.db.execute(text)) as unknown as { rows: T[] }).rows;
}
const rowCount = async (ctx: TestContext) =>
  (await query<{ n: number }>(ctx, sql`select count(*)::int as n from rate_limits`))[0]!.n;
const keysLike = async (ctx: TestContext, pattern: string) =>
  (
    await query<{ key: string }>(ctx, sql`select key from rate_limits where key like ${pattern}`)
  ).map((r) => r.key);

describe.each(dbKinds)('auth rate limits on %s', (kind) => {
  const ctx = useTestApp(kind);

  const signIn = (email: string, remoteAddress: string, forwardedFor?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email, password: 'wrong-password' },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  it('limits sign-in per address and email, ignoring X-Forwarded-For, until the window ends', async () => {
    const { payload } = await signUp(ctx.app);
    const ip = freshIp();
    // In parallel: password checks run on the thread pool, and the counter is one atomic upsert.
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn(payload.email, ip, `203.0.113.${i}`)),
    );
    expect(attempts.map((r) => r.statusCode)).toEqual(Array(10).fill(400));
    const blocked = await signIn(payload.email, ip, '198.51.100.77');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(300);

    // Even the right password waits: the limit is on attempts, not on failures.
    const right = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload,
      remoteAddress: ip,
    });
    expect(right.statusCode).toBe(429);
    // Another address for the same account is not blocked by this counter.
    expect((await signIn(payload.email, freshIp())).statusCode).toBe(400);

    ctx.clock.advance(5 * 60_000);
    const after = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload,
      remoteAddress: ip,
    });
    expect(after.statusCode).toBe(200);
  });

  it('limits sign-in per address across many emails', async () => {
    const ip = freshIp();
    const attempts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(uniqueEmail('spray'), ip, `192.0.2.${i}`)),
    );
    expect(attempts.map((r) => r.statusCode)).toEqual(Array(30).fill(400));
    expect((await signIn(uniqueEmail('spray'), ip)).statusCode).toBe(429);
  });

  it('limits sign-up to 5 an hour per address, whatever X-Forwarded-For says', async () => {
    const ip = freshIp();
    const attempt = (i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up',
        payload: {
          email: uniqueEmail('burst'),
          password: 'secret-pass',
          display_name: `Burst ${i}`,
        },
        remoteAddress: ip,
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
    for (let i = 0; i < 5; i++) expect((await attempt(i)).statusCode, `sign-up ${i + 1}`).toBe(201);
    const sixth = await attempt(6);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.code).toBe('rate_limited');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    ctx.clock.advance(60 * 60_000);
    expect((await attempt(7)).statusCode).toBe(201);
  });

  it('limits password recovery requests per address', async () => {
    const ip = freshIp();
    const recover = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/recover',
        payload: { email: uniqueEmail('r') },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i++) expect((await recover()).statusCode).toBe(200);
    expect((await recover()).statusCode).toBe(429);
  });

  const resetPassword = (token: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'brand-new-pass' },
      remoteAddress,
    });
  const verifyEmail = (token: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token },
      remoteAddress,
    });

  it('checks a reset token before it hashes the new password', async () => {
    const before = hasher.calls;
    // Each from its own address, so no rate limit hides the work a bogus token costs.
    const bogus = await Promise.all(
      Array.from({ length: 20 }, (_, i) => resetPassword(`bogus-token-${i}`, freshIp())),
    );
    for (const res of bogus) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'validation_failed',
        message: 'Password reset link is invalid or has expired',
      });
    }
    expect(hasher.calls - before).toBe(0);

    // A real link still works, and hashes exactly once: the counter does see the hasher.
    const { payload } = await signUp(ctx.app);
    ctx.mail.length = 0;
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/recover',
      payload: { email: payload.email },
      remoteAddress: freshIp(),
    });
    const token = decodeURIComponent(
      ctx.mail[0]!.text.match(/reset-password\?token=([^\s]+)/)![1]!,
    );
    const hashedBefore = hasher.calls;
    expect((await resetPassword(token, freshIp())).statusCode).toBe(200);
    expect(hasher.calls - hashedBefore).toBe(1);
    // Spent: refused like a bogus one, without hashing.
    expect((await resetPassword(token, freshIp())).statusCode).toBe(400);
    expect(hasher.calls - hashedBefore).toBe(1);
  });

  it('limits reset-password per address and per token', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      expect((await resetPassword(`guess-${i}`, ip)).statusCode, `attempt ${i + 1}`).toBe(400);
    const blocked = await resetPassword('guess-next', ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many requests. Please try again later.',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect((await resetPassword('guess-next', freshIp())).statusCode).toBe(400);

    // One token tried from ever new addresses (a leaked link, a botnet) is capped too.
    for (let i = 0; i < 5; i++)
      expect((await resetPassword('one-token', freshIp())).statusCode, `try ${i + 1}`).toBe(400);
    expect((await resetPassword('one-token', freshIp())).statusCode).toBe(429);
    // No key holds the token itself.
    expect(await keysLike(ctx, '%one-token%')).toEqual([]);

    ctx.clock.advance(15 * MINUTE);
    expect((await resetPassword('guess-later', ip)).statusCode).toBe(400);
  });

  it('limits verify-email per address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      expect((await verifyEmail(`guess-${i}`, ip)).statusCode, `attempt ${i + 1}`).toBe(400);
    const blocked = await verifyEmail('guess-next', ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await verifyEmail('guess-next', freshIp())).statusCode).toBe(400);
    ctx.clock.advance(15 * MINUTE);
    expect((await verifyEmail('guess-later', ip)).statusCode).toBe(400);
  });

  it('adds no rows for refused attempts: a burst of 400 leaves the table as it was', async () => {
    const ip = freshIp();
    const spent = await Promise.all(
      Array.from({ length: 30 }, () => signIn(uniqueEmail('budget'), ip)),
    );
    expect(spent.map((r) => r.statusCode)).toEqual(Array(30).fill(400));
    for (let i = 0; i < 10; i++) await resetPassword(`spend-${i}`, ip);
    const before = await rowCount(ctx);

    // Every attempt names a new email or token, i.e. a key no row has yet.
    const burst = await Promise.all([
      ...Array.from({ length: 300 }, () => signIn(uniqueEmail('burst'), ip)),
      ...Array.from({ length: 100 }, (_, i) => resetPassword(`burst-${i}`, ip)),
    ]);
    expect(burst.map((r) => r.statusCode)).toEqual(Array(400).fill(429));
    expect(await rowCount(ctx)).toBe(before);
  });

  it('deletes expired rows as it writes, at most a bounded batch per write', async () => {
    const now = () => ctx.clock.now().getTime();
    const at = (msAgo: number) => new Date(now() - msAgo).toISOString();
    const ips = [freshIp(), freshIp(), freshIp()];
    for (const ip of ips) expect((await signIn(uniqueEmail('old'), ip)).statusCode).toBe(400);
    const signUpIp = freshIp();
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/sign-up',
          payload: { email: uniqueEmail('keep'), password: 'secret-pass', display_name: 'Keep' },
          remoteAddress: signUpIp,
        })
      ).statusCode,
    ).toBe(201);
    // MFA's counters are one of its rules (a 5-minute window); a name no rule has (one
    // renamed since) is kept a day, its window not the limiter's to know.
    await ctx.db.database.db.execute(
      sql`insert into rate_limits (key, window_start, hits) values
            ('mfa-verify:hour-old', ${at(60 * MINUTE)}::timestamptz, 1),
            ('renamed-rule:day-old', ${at(25 * 60 * MINUTE)}::timestamptz, 1),
            ('renamed-rule:hour-old', ${at(60 * MINUTE)}::timestamptz, 1)`,
    );
    const signInKeys = async () =>
      (await keysLike(ctx, 'sign-in:%')).filter((k) =>
        ips.some((ip) => k === `sign-in:ip:${ip}` || k.startsWith(`sign-in:ip-email:${ip}:`)),
      );
    expect(await signInKeys()).toHaveLength(6); // per address, per address and email

    // Past the 5-minute sign-in window, inside sign-up's hour; any counted attempt sweeps.
    ctx.clock.advance(6 * MINUTE);
    expect((await signIn(uniqueEmail('trigger'), freshIp())).statusCode).toBe(400);
    expect(await signInKeys()).toEqual([]);
    expect(await keysLike(ctx, `sign-up:ip:${signUpIp}`)).toHaveLength(1);
    expect(await keysLike(ctx, 'mfa-verify:%')).toEqual([]);
    expect(await keysLike(ctx, 'renamed-rule:%')).toEqual(['renamed-rule:hour-old']);

    // A backlog is cleared a bounded batch per write, not all at once.
    await ctx.db.database.db.execute(
      sql`insert into rate_limits (key, window_start, hits)
          select 'sign-in:ip:backlog-' || n, ${at(10 * MINUTE)}::timestamptz, 1
          from generate_series(1, 1200) as n`,
    );
    const backlog = async () => (await keysLike(ctx, 'sign-in:ip:backlog-%')).length;
    ctx.clock.advance(2 * MINUTE);
    await signIn(uniqueEmail('trigger'), freshIp());
    const left = await backlog();
    expect(left).toBeGreaterThanOrEqual(700);
    expect(left).toBeLessThan(1200);
    for (let i = 0; i < 3; i++) await signIn(uniqueEmail('trigger'), freshIp());
    expect(await backlog()).toBe(0);
  });
});

describe.each(dbKinds)('auth rate limits behind a trusted proxy on %s', (kind) => {
  // One proxy given by CIDR, one by address (IPv6 loopback).
  const ctx = useTestApp(kind, { TRUST_PROXY: '172.16.0.0/12, ::1' });
  const proxy = '172.16.4.2';

  const recover = (remoteAddress: string, forwardedFor?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/recover',
      payload: { email: uniqueEmail('proxied') },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  it('gives each client the trusted proxy forwards its own bucket', async () => {
    for (let i = 0; i < 5; i++)
      expect((await recover(proxy, '198.51.100.10')).statusCode).toBe(200);
    expect((await recover(proxy, '198.51.100.10')).statusCode).toBe(429);
    // Everyone else behind the same proxy is not locked out with that client.
    expect((await recover(proxy, '198.51.100.11')).statusCode).toBe(200);
    expect((await recover('::1', '2001:db8::7')).statusCode).toBe(200);
  });

  it('takes the hop the trusted proxies add, not what the client wrote before it', async () => {
    // The client prepends a made-up address each time; the proxy appends the real one.
    for (let i = 0; i < 5; i++) {
      expect((await recover(proxy, `203.0.113.${i}, 198.51.100.20`)).statusCode).toBe(200);
    }
    expect((await recover(proxy, '203.0.113.99, 198.51.100.20')).statusCode).toBe(429);
    // Through two trusted proxies (172.16.9.9 forwarded to 172.16.4.2) the client is the same.
    expect((await recover(proxy, '198.51.100.20, 172.16.9.9')).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For from an address not in TRUST_PROXY', async () => {
    const direct = freshIp();
    for (let i = 0; i < 5; i++) {
      expect((await recover(direct, `198.51.100.${30 + i}`)).statusCode).toBe(200);
    }
    expect((await recover(direct, '198.51.100.99')).statusCode).toBe(429);
    // The spoofed addresses got no buckets of their own either way: 198.51.100.30 is fresh.
    expect((await recover(proxy, '198.51.100.30')).statusCode).toBe(200);
  });

  it('records the forwarded client address on the session', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email: uniqueEmail('behind'), password: 'secret-pass', display_name: 'Behind' },
      remoteAddress: proxy,
      headers: { 'x-forwarded-for': '198.51.100.40' },
    });
    expect(res.statusCode).toBe(201);
    const result = (await ctx.db.database.db.execute(
      sql`select ip from sessions where user_id = ${res.json().user.id}`,
    )) as unknown as { rows: Array<{ ip: string }> };
    expect(result.rows).toEqual([{ ip: '198.51.100.40' }]);
  });
});
