import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { signWithAppKey } from './app-signing-key.ts';
import { signUp } from './auth-helpers.ts';

// Access tokens name this service as their audience and always expire (docs/decisions/0002).
describe.each(dbKinds)('access token claims on %s', (kind) => {
  const ctx = useTestApp(kind);
  const audience = () => `${ctx.env.publicUrl}/api`;

  /** A signed-up user's issued token and its claims. */
  async function issued() {
    const { res } = await signUp(ctx.app);
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json().access_token as string;
    return { token, claims: decodeJwt(token) };
  }

  const sessionWith = (token: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { authorization: `Bearer ${token}` },
    });

  /** Everything of `claims` but the named ones. */
  const without = (claims: JWTPayload, ...names: string[]) =>
    Object.fromEntries(Object.entries(claims).filter(([k]) => !names.includes(k)));

  it('issues tokens with aud = this service and an exp, verifiable against the JWKS', async () => {
    const { token, claims } = await issued();
    expect(claims.aud).toBe(audience());
    expect(claims.iss).toBe(ctx.env.publicUrl);
    expect(typeof claims.exp).toBe('number');
    const jwks = (await ctx.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: ctx.env.publicUrl,
      audience: audience(),
      requiredClaims: ['exp'],
      currentDate: ctx.clock.now(),
    });
    expect(payload.sub).toBe(claims.sub);
  });

  it('accepts a token signed with the real key when its claims are right (the control)', async () => {
    const { claims } = await issued();
    const res = await sessionWith(await signWithAppKey(ctx, claims));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a validly signed token for another audience, or for none', async () => {
    const { claims } = await issued();
    for (const aud of ['https://other.example/api', `${ctx.env.publicUrl}/elsewhere`, ['x', 'y']]) {
      const res = await sessionWith(await signWithAppKey(ctx, { ...claims, aud }));
      expect(res.statusCode, JSON.stringify(aud)).toBe(401);
      expect(res.json().error.code).toBe('auth_required');
    }
    const noAud = await sessionWith(await signWithAppKey(ctx, without(claims, 'aud')));
    expect(noAud.statusCode).toBe(401);
  });

  it('refuses a validly signed token without exp, or with one in the past', async () => {
    const { claims } = await issued();
    const noExp = await sessionWith(await signWithAppKey(ctx, without(claims, 'exp')));
    expect(noExp.statusCode).toBe(401);
    expect(noExp.json().error.code).toBe('auth_required');
    const past = Math.floor(ctx.clock.now().getTime() / 1000) - 1;
    const expired = await sessionWith(await signWithAppKey(ctx, { ...claims, exp: past }));
    expect(expired.statusCode).toBe(401);
  });

  it('refuses an issued token once its exp has passed on the server clock', async () => {
    const { token, claims } = await issued();
    expect((await sessionWith(token)).statusCode).toBe(200);
    // Verified once already: the repeat still judges the expiry, to the second.
    ctx.clock.advance((claims.exp! - 1) * 1000 - ctx.clock.now().getTime());
    expect((await sessionWith(token)).statusCode).toBe(200);
    ctx.clock.advance(1000);
    expect((await sessionWith(token)).statusCode).toBe(401);
    ctx.clock.advance(1000);
    expect((await sessionWith(token)).statusCode).toBe(401);
  });
});
