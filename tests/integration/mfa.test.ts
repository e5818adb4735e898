import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { eq } from 'drizzle-orm';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import {
  SoftAuthenticator,
  type CreationOptions,
  type RequestOptions,
} from '../helpers/soft-authenticator.ts';
import { mfaFactors } from '../../src/server/db/schema/index.ts';
import { createMfaRepository } from '../../src/server/modules/mfa/mfa.repository.ts';
import { createMfaService } from '../../src/server/modules/mfa/mfa.service.ts';

const PASSWORD = 'listen-pass-1';
let seq = 0;

type User = { email: string; token: string; address: string };

function client(ctx: TestContext) {
  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token?: string,
    payload?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload !== undefined && { payload: payload as object }),
    });

  return {
    call,
    /** A fresh account (each from its own address, clear of the sign-up limit). */
    async signUp(): Promise<User> {
      seq += 1;
      const email = `mfa-${seq}-${Date.now().toString(36)}@canto.test`;
      const address = `10.9.${Math.floor(seq / 250)}.${seq % 250}`;
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up',
        remoteAddress: address,
        payload: { email, password: PASSWORD, display_name: `MFA user ${seq}` },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { email, token: res.json().access_token, address };
    },
    async signIn(user: User) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        remoteAddress: user.address,
        payload: { email: user.email, password: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { access_token: string; aal: string; next_aal: string };
    },
    async session(token: string) {
      const res = await call('GET', '/api/auth/session', token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { aal: string; next_aal: string };
    },
    async factors(token: string) {
      const res = await call('GET', '/api/auth/factors', token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        id: string;
        factor_type: string;
        status: string;
        friendly_name: string | null;
      }[];
    },
    async enrolTotp(token: string, friendly_name?: string) {
      const res = await call('POST', '/api/auth/factors', token, {
        factor_type: 'totp',
        friendly_name,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; type: string; totp: { secret: string; uri: string } };
    },
    async challenge(token: string, factorId: string) {
      const res = await call('POST', `/api/auth/factors/${factorId}/challenge`, token, {});
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as {
        id: string;
        expires_at: number;
        webauthn?: { kind: string; options: any };
      };
    },
    verify(token: string, factorId: string, body: object) {
      return call('POST', `/api/auth/factors/${factorId}/verify`, token, body);
    },
    /** A TOTP code at the test clock's time. */
    code: (secret: string, offsetS = 0) =>
      generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) + offsetS }),
  };
}

/** Moves the test clock to the start of the next TOTP step, so every test gets a fresh code. */
function nextStep(ctx: TestContext) {
  const ms = ctx.clock.now().getTime();
  ctx.clock.advance(30_000 - (ms % 30_000) + 1_000);
}

describe.each(dbKinds)('MFA on %s', (kind) => {
  const ctx = useTestApp(kind);

  /** A user with a verified TOTP factor and an aal2 token. */
  async function enrolled(api: ReturnType<typeof client>) {
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const ch = await api.challenge(user.token, factor.id);
    const res = await api.verify(user.token, factor.id, {
      challenge_id: ch.id,
      code: await api.code(factor.totp.secret),
    });
    expect(res.statusCode, res.body).toBe(200);
    nextStep(ctx);
    return { user, factor, aal2Token: res.json().access_token as string };
  }

  it('refuses a lone surrogate in the TOTP issuer with a 400 and writes no factor', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    for (const issuer of ['\uD800', 'Canto \uDC00', 'Can\uDBFFto']) {
      const res = await api.call('POST', '/api/auth/factors', user.token, {
        factor_type: 'totp',
        friendly_name: 'phone',
        issuer,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        message: 'Text must be well-formed Unicode',
        details: { field: 'issuer', context: 'body' },
      });
    }
    expect(await api.factors(user.token)).toEqual([]);
    // The same name is still free: nothing was half-written.
    expect((await api.enrolTotp(user.token, 'phone')).type).toBe('totp');
  });

  it('enrols nothing when building the TOTP answer fails (the step runs before the write)', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const userId = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        headers: { authorization: `Bearer ${user.token}` },
      })
    ).json().id as string;
    const mfa = createMfaService({
      repo: createMfaRepository(ctx.db.database.db),
      limiter: { hit: async () => {}, clear: async () => {} },
      clock: ctx.clock,
      publicUrl: ctx.env.publicUrl,
      secretKey: 'k'.repeat(64),
      log: { info() {}, warn() {}, error() {}, debug() {} } as never,
    });
    const principal = {
      userId,
      sessionId: crypto.randomUUID(),
      aal: 'aal1',
      hasVerifiedFactor: false,
    } as const;
    // Past the edge (a direct caller): the URI's encoding throws on the lone surrogate.
    await expect(mfa.enrol(principal, { factor_type: 'totp', issuer: '\uD800' })).rejects.toThrow(
      URIError,
    );
    expect(await mfa.list(userId)).toEqual([]);
  });

  it('refuses the phone factor: no SMS provider is configured', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const res = await api.call('POST', '/api/auth/factors', user.token, {
      factor_type: 'phone',
      phone: '+15555550100',
    });
    expect(res.statusCode).toBe(501);
    expect(res.json().error).toMatchObject({
      code: 'not_configured',
      message: 'SMS provider not configured',
    });
    expect(await api.factors(user.token)).toEqual([]);
  });

  it('enrols TOTP: a secret and otpauth URI for the app, stored encrypted, unverified until a code is checked', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token, 'Phone app');
    expect(factor.type).toBe('totp');
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(factor.totp.uri);
    expect(decodeURIComponent(factor.totp.uri)).toMatch(
      new RegExp(`^otpauth://totp/Canto:${user.email}\\?`),
    );
    expect(uri.searchParams.get('issuer')).toBe('Canto');
    expect(uri.searchParams.get('secret')).toBe(factor.totp.secret);

    const [row] = await ctx.db.database.db
      .select()
      .from(mfaFactors)
      .where(eq(mfaFactors.id, factor.id));
    expect(row?.secretEncrypted).toBeTruthy();
    expect(row?.secretEncrypted).not.toContain(factor.totp.secret);

    expect(await api.factors(user.token)).toEqual([
      expect.objectContaining({
        id: factor.id,
        factor_type: 'totp',
        friendly_name: 'Phone app',
        status: 'unverified',
      }),
    ]);
    // An unverified factor does not raise what the session could reach.
    expect(await api.session(user.token)).toMatchObject({ aal: 'aal1', next_aal: 'aal1' });
  });

  it('uses the requested issuer in the otpauth URI', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const res = await api.call('POST', '/api/auth/factors', user.token, {
      factor_type: 'totp',
      issuer: 'My Canto',
    });
    expect(res.statusCode).toBe(201);
    expect(decodeURIComponent(res.json().totp.uri)).toMatch(
      new RegExp(`^otpauth://totp/My Canto:${user.email}\\?`),
    );
  });

  it('a wrong code is 422 auth_mfa_invalid and changes nothing', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const ch = await api.challenge(user.token, factor.id);
    const good = await api.code(factor.totp.secret);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    const res = await api.verify(user.token, factor.id, { challenge_id: ch.id, code: wrong });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('auth_mfa_invalid');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await api.factors(user.token))[0]?.status).toBe('unverified');
    expect(await api.session(user.token)).toMatchObject({ aal: 'aal1' });
    // The challenge survives a wrong guess: the right code still works.
    const ok = await api.verify(user.token, factor.id, { challenge_id: ch.id, code: good });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('the right code verifies the factor and raises the session to aal2', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const ch = await api.challenge(user.token, factor.id);
    expect(ch.expires_at).toBe(Math.floor(ctx.clock.now().getTime() / 1000) + 300);
    const res = await api.verify(user.token, factor.id, {
      challenge_id: ch.id,
      code: await api.code(factor.totp.secret),
    });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect(session).toMatchObject({ aal: 'aal2', next_aal: 'aal2', user: { email: user.email } });
    expect(String(res.headers['set-cookie'])).toContain('canto_access=');
    expect(await api.session(session.access_token)).toMatchObject({
      aal: 'aal2',
      next_aal: 'aal2',
    });
    expect((await api.factors(session.access_token))[0]?.status).toBe('verified');
    nextStep(ctx);
  });

  it('signing in again gives aal1 with next_aal aal2, and the challenge lifts it', async () => {
    const api = client(ctx);
    const { user, factor } = await enrolled(api);
    const again = await api.signIn(user);
    expect(again).toMatchObject({ aal: 'aal1', next_aal: 'aal2' });
    const ch = await api.challenge(again.access_token, factor.id);
    const res = await api.verify(again.access_token, factor.id, {
      challenge_id: ch.id,
      code: await api.code(factor.totp.secret),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().aal).toBe('aal2');
    nextStep(ctx);
  });

  it('refuses a code whose time step was already used, and a used challenge', async () => {
    const api = client(ctx);
    const { user, factor } = await enrolled(api);
    const session = await api.signIn(user);
    const code = await api.code(factor.totp.secret);
    const first = await api.challenge(session.access_token, factor.id);
    expect(
      (await api.verify(session.access_token, factor.id, { challenge_id: first.id, code }))
        .statusCode,
    ).toBe(200);

    // The same challenge again.
    const usedChallenge = await api.verify(session.access_token, factor.id, {
      challenge_id: first.id,
      code,
    });
    expect(usedChallenge.statusCode).toBe(422);
    expect(usedChallenge.json().error.message).toBe('Challenge has already been used');

    // The same code on a new challenge, later in the same step.
    const other = await api.signIn(user);
    const second = await api.challenge(other.access_token, factor.id);
    ctx.clock.advance(5_000);
    const replay = await api.verify(other.access_token, factor.id, {
      challenge_id: second.id,
      code,
    });
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toMatchObject({
      error: { code: 'auth_mfa_invalid', message: 'This code has already been used' },
    });
    expect(await api.session(other.access_token)).toMatchObject({ aal: 'aal1' });

    // The next step's code is accepted.
    nextStep(ctx);
    const fresh = await api.verify(other.access_token, factor.id, {
      challenge_id: second.id,
      code: await api.code(factor.totp.secret),
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    nextStep(ctx);
  });

  it('a challenge expires after five minutes', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const ch = await api.challenge(user.token, factor.id);
    ctx.clock.advance(5 * 60_000);
    const res = await api.verify(user.token, factor.id, {
      challenge_id: ch.id,
      code: await api.code(factor.totp.secret),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: { code: 'auth_mfa_invalid', message: 'Challenge has expired' },
    });
    expect((await api.factors(user.token))[0]?.status).toBe('unverified');
    nextStep(ctx);
  });

  it("another user's factor is not found, whatever the action", async () => {
    const api = client(ctx);
    const owner = await api.signUp();
    const intruder = await api.signUp();
    const factor = await api.enrolTotp(owner.token);
    const ch = await api.challenge(owner.token, factor.id);
    const code = await api.code(factor.totp.secret);

    expect(await api.factors(intruder.token)).toEqual([]);
    const challenge = await api.call(
      'POST',
      `/api/auth/factors/${factor.id}/challenge`,
      intruder.token,
      {},
    );
    expect(challenge.statusCode).toBe(404);
    const verify = await api.verify(intruder.token, factor.id, { challenge_id: ch.id, code });
    expect(verify.statusCode).toBe(404);
    const del = await api.call('DELETE', `/api/auth/factors/${factor.id}`, intruder.token);
    expect(del.statusCode).toBe(404);
    expect(await api.factors(owner.token)).toHaveLength(1);
    // And a challenge of another factor does not answer for this one.
    const mine = await api.enrolTotp(intruder.token);
    const cross = await api.verify(intruder.token, mine.id, {
      challenge_id: ch.id,
      code: await api.code(mine.totp.secret),
    });
    expect(cross.statusCode).toBe(422);
  });

  it('an aal1 session of an enrolled user cannot add a factor (that would bypass the existing one)', async () => {
    const api = client(ctx);
    const { user, aal2Token } = await enrolled(api);
    const aal1 = await api.signIn(user);
    const res = await api.call('POST', '/api/auth/factors', aal1.access_token, {
      factor_type: 'totp',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('insufficient_aal');
    const passkey = await api.call('POST', '/api/auth/factors', aal1.access_token, {
      factor_type: 'webauthn',
    });
    expect(passkey.statusCode).toBe(403);
    // From aal2 it may.
    expect(
      (await api.call('POST', '/api/auth/factors', aal2Token, { factor_type: 'totp' })).statusCode,
    ).toBe(201);
  });

  it('an unverified factor created before another was verified cannot be completed from aal1', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const spare = await api.enrolTotp(user.token, 'Spare');
    const main = await api.enrolTotp(user.token, 'Main');
    const ch = await api.challenge(user.token, main.id);
    expect(
      (
        await api.verify(user.token, main.id, {
          challenge_id: ch.id,
          code: await api.code(main.totp.secret),
        })
      ).statusCode,
    ).toBe(200);
    const aal1 = await api.signIn(user);
    const spareCh = await api.challenge(aal1.access_token, spare.id);
    const res = await api.verify(aal1.access_token, spare.id, {
      challenge_id: spareCh.id,
      code: await api.code(spare.totp.secret),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('insufficient_aal');
    nextStep(ctx);
  });

  it('removes an unverified factor from aal1, a verified one only from aal2', async () => {
    const api = client(ctx);
    const newcomer = await api.signUp();
    const abandoned = await api.enrolTotp(newcomer.token);
    expect(
      (await api.call('DELETE', `/api/auth/factors/${abandoned.id}`, newcomer.token)).statusCode,
    ).toBe(204);

    const { user, factor, aal2Token } = await enrolled(api);
    const aal1 = await api.signIn(user);

    const refused = await api.call('DELETE', `/api/auth/factors/${factor.id}`, aal1.access_token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('insufficient_aal');

    // Once a factor is verified, an aal1 session reaches only the challenge (ADR 0002).
    const draft = await api.enrolTotp(aal2Token, 'Draft');
    const draftFromAal1 = await api.call(
      'DELETE',
      `/api/auth/factors/${draft.id}`,
      aal1.access_token,
    );
    expect(draftFromAal1.statusCode).toBe(403);
    expect(draftFromAal1.json().error.code).toBe('insufficient_aal');
    expect((await api.call('DELETE', `/api/auth/factors/${draft.id}`, aal2Token)).statusCode).toBe(
      204,
    );

    expect((await api.call('DELETE', `/api/auth/factors/${factor.id}`, aal2Token)).statusCode).toBe(
      204,
    );
    expect(await api.factors(aal2Token)).toEqual([]);
    expect((await api.signIn(user)).next_aal).toBe('aal1');
    expect((await api.call('DELETE', `/api/auth/factors/${factor.id}`, aal2Token)).statusCode).toBe(
      404,
    );
  });

  it('after five wrong codes in five minutes, verification is refused with 429 until the window ends', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const ch = await api.challenge(user.token, factor.id);
    for (let i = 0; i < 5; i++) {
      const res = await api.verify(user.token, factor.id, {
        challenge_id: ch.id,
        code: '000000' === (await api.code(factor.totp.secret)) ? '111111' : '000000',
      });
      expect(res.statusCode).toBe(422);
    }
    const blocked = await api.verify(user.token, factor.id, {
      challenge_id: ch.id,
      code: await api.code(factor.totp.secret),
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many verification attempts. Try again later.',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    ctx.clock.advance(5 * 60_000);
    const fresh = await api.challenge(user.token, factor.id);
    const ok = await api.verify(user.token, factor.id, {
      challenge_id: fresh.id,
      code: await api.code(factor.totp.secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    nextStep(ctx);
  });

  it('a verified code clears the attempts counted against the factor', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const wrongCode = async () =>
      '000000' === (await api.code(factor.totp.secret)) ? '111111' : '000000';
    const ch = await api.challenge(user.token, factor.id);
    for (let i = 0; i < 4; i++) {
      const res = await api.verify(user.token, factor.id, {
        challenge_id: ch.id,
        code: await wrongCode(),
      });
      expect(res.statusCode).toBe(422);
    }
    const ok = await api.verify(user.token, factor.id, {
      challenge_id: ch.id,
      code: await api.code(factor.totp.secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    nextStep(ctx);

    // Five more wrong codes in the same window are each checked, not refused unread.
    const aal2Token = ok.json().access_token as string;
    const again = await api.challenge(aal2Token, factor.id);
    for (let i = 0; i < 5; i++) {
      const res = await api.verify(aal2Token, factor.id, {
        challenge_id: again.id,
        code: await wrongCode(),
      });
      expect(res.statusCode, res.body).toBe(422);
    }
  });

  it('rejects a body with neither or both of code and credential', async () => {
    const api = client(ctx);
    const user = await api.signUp();
    const factor = await api.enrolTotp(user.token);
    const ch = await api.challenge(user.token, factor.id);
    expect((await api.verify(user.token, factor.id, { challenge_id: ch.id })).statusCode).toBe(400);
    const both = {
      challenge_id: ch.id,
      code: '123456',
      credential: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'e30' } },
    };
    expect((await api.verify(user.token, factor.id, both)).statusCode).toBe(400);
  });

  describe('passkeys', () => {
    it('registers a passkey, then signs in with it to reach aal2', async () => {
      const api = client(ctx);
      const user = await api.signUp();
      const authenticator = new SoftAuthenticator(new URL(ctx.env.publicUrl).origin);

      const res = await api.call('POST', '/api/auth/factors', user.token, {
        factor_type: 'webauthn',
        friendly_name: 'Laptop',
      });
      expect(res.statusCode, res.body).toBe(201);
      const enrolment = res.json();
      expect(enrolment.webauthn.webauthn.kind).toBe('registration');
      const options = enrolment.webauthn.webauthn.options as CreationOptions & {
        user: { name: string };
        [k: string]: any;
      };
      expect(options.rp).toEqual({ id: new URL(ctx.env.publicUrl).hostname, name: 'Canto' });
      expect(options.user.name).toBe(user.email);
      expect(options.authenticatorSelection).toMatchObject({
        residentKey: 'preferred',
        userVerification: 'preferred',
      });

      const registered = await api.verify(user.token, enrolment.id, {
        challenge_id: enrolment.webauthn.id,
        credential: authenticator.register(options),
      });
      expect(registered.statusCode, registered.body).toBe(200);
      expect(registered.json().aal).toBe('aal2');
      const [row] = await ctx.db.database.db
        .select()
        .from(mfaFactors)
        .where(eq(mfaFactors.id, enrolment.id));
      expect(row).toMatchObject({
        status: 'verified',
        credentialId: authenticator.id,
        signCount: 0,
        transports: 'internal',
      });

      const aal1 = await api.signIn(user);
      expect(aal1).toMatchObject({ aal: 'aal1', next_aal: 'aal2' });
      const ch = await api.challenge(aal1.access_token, enrolment.id);
      expect(ch.webauthn?.kind).toBe('authentication');
      const request = ch.webauthn!.options as RequestOptions & {
        allowCredentials: { id: string }[];
      };
      expect(request.allowCredentials.map((c) => c.id)).toEqual([authenticator.id]);
      const assertion = authenticator.authenticate(request);
      const verified = await api.verify(aal1.access_token, enrolment.id, {
        challenge_id: ch.id,
        credential: assertion,
      });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(await api.session(verified.json().access_token)).toMatchObject({ aal: 'aal2' });
      const [after] = await ctx.db.database.db
        .select()
        .from(mfaFactors)
        .where(eq(mfaFactors.id, enrolment.id));
      expect(after?.signCount).toBe(1);

      // A captured assertion does not answer a new challenge.
      const next = await api.signIn(user);
      const ch2 = await api.challenge(next.access_token, enrolment.id);
      const replay = await api.verify(next.access_token, enrolment.id, {
        challenge_id: ch2.id,
        credential: assertion,
      });
      expect(replay.statusCode).toBe(422);
      // Nor does an assertion made for another origin (a phishing page).
      const phished = authenticator.authenticate(
        ch2.webauthn!.options,
        'https://canto.example.net',
      );
      const wrongOrigin = await api.verify(next.access_token, enrolment.id, {
        challenge_id: ch2.id,
        credential: phished,
      });
      expect(wrongOrigin.statusCode).toBe(422);
      expect(await api.session(next.access_token)).toMatchObject({ aal: 'aal1' });
    });

    it('refuses a registration for another origin and a credential of another authenticator', async () => {
      const api = client(ctx);
      const user = await api.signUp();
      const origin = new URL(ctx.env.publicUrl).origin;
      const res = await api.call('POST', '/api/auth/factors', user.token, {
        factor_type: 'webauthn',
      });
      const enrolment = res.json();
      const options = enrolment.webauthn.webauthn.options;
      const bad = await api.verify(user.token, enrolment.id, {
        challenge_id: enrolment.webauthn.id,
        credential: new SoftAuthenticator(origin).register(options, 'https://evil.example'),
      });
      expect(bad.statusCode).toBe(422);
      expect((await api.factors(user.token))[0]?.status).toBe('unverified');

      const good = new SoftAuthenticator(origin);
      expect(
        (
          await api.verify(user.token, enrolment.id, {
            challenge_id: enrolment.webauthn.id,
            credential: good.register(options),
          })
        ).statusCode,
      ).toBe(200);
      const aal1 = await api.signIn(user);
      const ch = await api.challenge(aal1.access_token, enrolment.id);
      const stranger = new SoftAuthenticator(origin);
      const wrongKey = await api.verify(aal1.access_token, enrolment.id, {
        challenge_id: ch.id,
        credential: stranger.authenticate(ch.webauthn!.options),
      });
      expect(wrongKey.statusCode).toBe(422);
      // A TOTP code is no answer for a passkey.
      const code = await api.verify(aal1.access_token, enrolment.id, {
        challenge_id: ch.id,
        code: '123456',
      });
      expect(code.statusCode).toBe(422);
    });
  });
});
