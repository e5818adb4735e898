import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { freshIp, signUp, uniqueEmail } from './auth-helpers.ts';

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
