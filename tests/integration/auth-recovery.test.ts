import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { freshIp, signUp, uniqueEmail } from './auth-helpers.ts';

const PAGES = { reset: '/reset-password', verify: '/verify-email' } as const;
const tokenIn = (text: string, page: 'reset' | 'verify') => {
  const m = text.match(new RegExp(`${PAGES[page]}\\?token=([A-Za-z0-9_%-]+)`));
  return m ? decodeURIComponent(m[1]!) : undefined;
};

const recover = (ctx: TestContext, email: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/recover',
    payload: { email },
    remoteAddress: freshIp(),
  });

const signIn = (ctx: TestContext, email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: { email, password },
    remoteAddress: freshIp(),
  });

describe.each(dbKinds)('password reset and email verification with SMTP on %s', (kind) => {
  const ctx = useTestApp(kind, { SMTP_URL: 'smtp://127.0.0.1:2525' });

  it('answers recover the same way for known and unknown emails, and mails only the known one', async () => {
    const { payload } = await signUp(ctx.app);
    ctx.mail.length = 0;
    const known = await recover(ctx, payload.email);
    const unknown = await recover(ctx, uniqueEmail('ghost'));
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(ctx.mail).toHaveLength(1);
    expect(ctx.mail[0]!.to).toBe(payload.email);
    expect(ctx.mail[0]!.text).toContain(`${ctx.env.publicUrl}/reset-password?token=`);
  });

  it('signs the user in with a new session, ends every other one, and spends older links', async () => {
    const { payload } = await signUp(ctx.app);
    // A second device, signed in before the reset.
    const other = (await signIn(ctx, payload.email, payload.password)).json();
    ctx.mail.length = 0;
    await recover(ctx, payload.email);
    await recover(ctx, payload.email);
    const [older, newer] = ctx.mail.map((m) => tokenIn(m.text, 'reset')!);
    expect(older).toBeDefined();
    expect(newer).toBeDefined();

    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: newer, password: 'brand-new-pass' },
      remoteAddress: freshIp(),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const session = reset.json();
    expect(session).toMatchObject({ aal: 'aal1', user: { email: payload.email } });
    // The web app's cookies carry the new session.
    expect(reset.cookies.map((c) => c.name)).toEqual(
      expect.arrayContaining(['canto_access', 'canto_refresh']),
    );
    const cookie = reset.cookies.find((c) => c.name === 'canto_access')!;
    expect(cookie.value).toBe(session.access_token);
    const mine = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(mine.statusCode).toBe(200);

    // The other device is signed out, its refresh token dead.
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${other.access_token}` },
    });
    expect(theirs.statusCode).toBe(401);
    const refresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: other.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);

    // The older link mailed before cannot set the password again.
    const late = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: older, password: 'thief-pass-1' },
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toMatchObject({
      code: 'validation_failed',
      message: 'Password reset link is invalid or has expired',
    });
    expect((await signIn(ctx, payload.email, 'brand-new-pass')).statusCode).toBe(200);
    expect((await signIn(ctx, payload.email, 'thief-pass-1')).statusCode).toBe(400);
  });

  it('checks the new password as sign-up does, and keeps the link for a second try', async () => {
    const { payload } = await signUp(ctx.app);
    ctx.mail.length = 0;
    await recover(ctx, payload.email);
    const token = tokenIn(ctx.mail[0]!.text, 'reset')!;
    for (const [password, message] of [
      ['12345', 'Password must be at least 6 characters'],
      ['x'.repeat(73), 'Password must be less than 72 characters'],
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token, password },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
    }
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'second-try' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('resets the password once, revokes every session, and refuses the spent token', async () => {
    const { res, payload } = await signUp(ctx.app);
    const { access_token, refresh_token } = res.json();
    ctx.mail.length = 0;
    await recover(ctx, payload.email);
    const token = tokenIn(ctx.mail[0]!.text, 'reset')!;
    expect(token).toBeDefined();

    const tooShort = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: '123' },
    });
    expect(tooShort.json().error.message).toBe('Password must be at least 6 characters');

    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'brand-new-pass' },
    });
    expect(reset.statusCode).toBe(200);

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
    expect((await signIn(ctx, payload.email, payload.password)).statusCode).toBe(400);
    expect((await signIn(ctx, payload.email, 'brand-new-pass')).statusCode).toBe(200);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'another-pass' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('validation_failed');
    expect((await signIn(ctx, payload.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it('refuses a reset token after its hour and an unknown token', async () => {
    const { payload } = await signUp(ctx.app);
    ctx.mail.length = 0;
    await recover(ctx, payload.email);
    const token = tokenIn(ctx.mail[0]!.text, 'reset')!;
    ctx.clock.advance(60 * 60_000 + 1);
    const late = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'new-pass-1' },
    });
    expect(late.statusCode).toBe(400);
    const bogus = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'bogus-token', password: 'new-pass-1' },
    });
    expect(bogus.statusCode).toBe(400);
    expect((await signIn(ctx, payload.email, payload.password)).statusCode).toBe(200);
  });

  it('stores only hashes of emailed tokens', async () => {
    const { payload, res } = await signUp(ctx.app);
    ctx.mail.length = 0;
    await recover(ctx, payload.email);
    const token = tokenIn(ctx.mail[0]!.text, 'reset')!;
    const result = (await ctx.db.database.db.execute(
      sql`select token_hash from auth_tokens where user_id = ${res.json().user.id}`,
    )) as unknown as { rows: Array<{ token_hash: string }> };
    expect(result.rows.length).toBeGreaterThan(0);
    for (const row of result.rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.token_hash).not.toBe(token);
    }
  });

  it('mails a verification link at sign-up and marks the email verified once used', async () => {
    ctx.mail.length = 0;
    const { res, payload } = await signUp(ctx.app);
    expect(res.json().user.email_verified).toBe(false);
    const mail = ctx.mail.find((m) => m.to === payload.email)!;
    const token = tokenIn(mail.text, 'verify')!;
    expect(mail.text).toContain(`${ctx.env.publicUrl}/verify-email?token=`);
    const verify = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token },
    });
    expect(verify.statusCode).toBe(204);
    const session = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    expect(session.json().email_verified).toBe(true);
    const twice = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token },
    });
    expect(twice.statusCode).toBe(400);
  });

  it('mails a new verification link on request, until the address is confirmed', async () => {
    ctx.mail.length = 0;
    const { res, payload } = await signUp(ctx.app);
    const auth = { authorization: `Bearer ${res.json().access_token}` };
    const resend = () =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/verify-email/resend', headers: auth });
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/auth/verify-email/resend' })).statusCode,
    ).toBe(401);
    expect((await resend()).statusCode).toBe(204);
    const links = ctx.mail
      .filter((m) => m.to === payload.email)
      .map((m) => tokenIn(m.text, 'verify'));
    expect(links).toHaveLength(2);
    expect(links[1]).not.toBe(links[0]);
    const verify = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: links[1] },
    });
    expect(verify.statusCode).toBe(204);
    const again = await resend();
    expect(again.statusCode).toBe(409);
    expect(ctx.mail.filter((m) => m.to === payload.email)).toHaveLength(2);
  });

  it('limits new verification links to 3 an hour per account', async () => {
    const { res, payload } = await signUp(ctx.app);
    const auth = { authorization: `Bearer ${res.json().access_token}` };
    ctx.mail.length = 0;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (
          await ctx.app.inject({
            method: 'POST',
            url: '/api/auth/verify-email/resend',
            headers: auth,
          })
        ).statusCode,
      );
    expect(codes).toEqual([204, 204, 204, 429]);
    expect(ctx.mail.filter((m) => m.to === payload.email)).toHaveLength(3);
  });
});

describe.each(dbKinds)('without SMTP on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('sends no verification mail and blocks nothing on an unverified email', async () => {
    const { res, payload } = await signUp(ctx.app);
    expect(res.statusCode).toBe(201);
    expect(ctx.mail).toHaveLength(0);
    expect(res.json().user.email_verified).toBe(false);
    expect((await signIn(ctx, payload.email, payload.password)).statusCode).toBe(200);
  });

  it('still hands the reset link to the mailer (which logs it)', async () => {
    const { payload } = await signUp(ctx.app);
    await recover(ctx, payload.email);
    expect(ctx.mail.map((m) => m.to)).toEqual([payload.email]);
    expect(tokenIn(ctx.mail[0]!.text, 'reset')).toBeDefined();
  });

  it('says a new verification link cannot be mailed', async () => {
    const { res } = await signUp(ctx.app);
    ctx.mail.length = 0;
    const resend = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/resend',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    expect(resend.statusCode).toBe(409);
    expect(resend.json().error).toMatchObject({
      code: 'duplicate',
      message: 'Email verification is off on this server',
    });
    expect(ctx.mail).toHaveLength(0);
  });
});
