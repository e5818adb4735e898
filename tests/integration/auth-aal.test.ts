import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { signWithAppKey } from './app-signing-key.ts';
import { freshIp, uniqueEmail } from './auth-helpers.ts';
import { makePng, makeWav, multipart } from './songs-helpers.ts';

// docs/decisions/0002, "aal2 on every route": once a user has a verified factor, a password-only
// (aal1) session reaches only what the MFA challenge needs; everything else answers 403
// insufficient_aal.

/** Exactly the routes an aal1 session of an enrolled user may call (sign-out is public). */
const CHALLENGE_ROUTES = [
  'GET /api/auth/factors',
  'GET /api/auth/session',
  'POST /api/auth/factors/:factorId/challenge',
  'POST /api/auth/factors/:factorId/verify',
  'POST /api/auth/sign-out',
];
const PASSWORD = 'aal-pass-1';
const ANY_ID = '00000000-0000-4000-8000-000000000000';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

function aalClient(ctx: TestContext) {
  const call = (method: Method, url: string, token: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined && { payload }),
    });
  const db = ctx.db.database.db;

  /** Moves the clock to a fresh TOTP step, so a code is never a replay of the last one. */
  const nextStep = () => {
    const ms = ctx.clock.now().getTime();
    ctx.clock.advance(30_000 - (ms % 30_000) + 1_000);
  };
  const code = (secret: string) =>
    generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });

  async function signUp(roles: ('artist' | 'admin' | 'pending_artist')[] = []) {
    const email = uniqueEmail('aal');
    const address = freshIp();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      remoteAddress: address,
      payload: { email, password: PASSWORD, display_name: 'AAL User' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const userId = res.json().user.id as string;
    for (const role of roles) {
      await db.execute(sql`insert into user_roles (user_id, role) values (${userId}, ${role})`);
    }
    return { email, address, userId, token: res.json().access_token as string };
  }

  async function signIn(user: { email: string; address: string }): Promise<string> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      remoteAddress: user.address,
      payload: { email: user.email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ aal: 'aal1' });
    return res.json().access_token;
  }

  /** Challenge and verify: the session behind `token` rises to aal2; its new access token. */
  async function passChallenge(token: string, factor: { id: string; secret: string }) {
    nextStep();
    const ch = await call('POST', `/api/auth/factors/${factor.id}/challenge`, token, {});
    expect(ch.statusCode, ch.body).toBe(201);
    const res = await call('POST', `/api/auth/factors/${factor.id}/verify`, token, {
      challenge_id: ch.json().id,
      code: await code(factor.secret),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ aal: 'aal2' });
    return res.json().access_token as string;
  }

  /** A user with `roles` and a verified TOTP factor (enrolled the way the web app does it). */
  async function enrolled(roles: ('artist' | 'admin')[] = []) {
    const user = await signUp(roles);
    const res = await call('POST', '/api/auth/factors', user.token, { factor_type: 'totp' });
    expect(res.statusCode, res.body).toBe(201);
    const factor = { id: res.json().id as string, secret: res.json().totp.secret as string };
    const aal2Token = await passChallenge(user.token, factor);
    return { ...user, factor, aal2Token };
  }

  /** Every non-public route (HEAD mirrors GET), called with `token` and an empty body. */
  async function walk(token: string) {
    const routes = ctx.app.routePolicies.filter(
      (r) => r.access !== 'public' && r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(10);
    const answers: { route: string; status: number; code: string | undefined }[] = [];
    for (const r of routes) {
      const res = await call(
        r.method as Method,
        r.url.replace(/:(\w+)/g, ANY_ID),
        token,
        r.method === 'GET' ? undefined : {},
      );
      const body = res.body ? (JSON.parse(res.body) as { error?: { code?: string } }) : {};
      answers.push({
        route: `${r.method} ${r.url}`,
        status: res.statusCode,
        code: body.error?.code,
      });
    }
    return answers;
  }

  return { call, signUp, signIn, enrolled, passChallenge, walk };
}

describe.each(dbKinds)('aal2 for enrolled users on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('marks exactly the challenge routes as open to aal1', () => {
    const open = ctx.app.routePolicies
      .filter((r) => r.allowAal1 && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(open).toEqual(CHALLENGE_ROUTES);
  });

  it('refuses every other non-public route to an aal1 session of an enrolled artist and admin, and opens them after the challenge', async () => {
    const api = aalClient(ctx);
    const user = await api.enrolled(['artist', 'admin']);
    const aal1 = await api.signIn(user);

    const answers = await api.walk(aal1);
    for (const a of answers) {
      if (CHALLENGE_ROUTES.includes(a.route)) {
        expect(a.code, a.route).not.toBe('insufficient_aal');
        expect(a.status, a.route).toBeLessThan(500);
      } else {
        expect({ route: a.route, status: a.status, code: a.code }).toEqual({
          route: a.route,
          status: 403,
          code: 'insufficient_aal',
        });
      }
    }
    // The session answers what the client needs to show the challenge.
    const session = await api.call('GET', '/api/auth/session', aal1);
    expect(session.json()).toMatchObject({ aal: 'aal1', next_aal: 'aal2' });

    // The same session after its challenge: nothing is refused for want of a factor or a role.
    const aal2 = await api.passChallenge(aal1, user.factor);
    for (const a of await api.walk(aal2)) {
      expect(a.code, a.route).not.toBe('insufficient_aal');
      expect([401, 403], a.route).not.toContain(a.status);
      expect(a.status, a.route).toBeLessThan(500);
    }
  });

  it('lets an aal1 artist neither upload, edit nor delete, nor an aal1 admin read or decide the queue; nothing changes', async () => {
    const api = aalClient(ctx);
    const user = await api.enrolled(['artist', 'admin']);
    const applicant = await api.signUp(['pending_artist']);
    const upload = async (token: string) => {
      const { headers, payload } = multipart([
        { name: 'title', value: 'Guarded' },
        { name: 'file', filename: 'g.wav', data: makeWav(1) },
        { name: 'cover', filename: 'g.png', data: await makePng(64, 64) },
      ]);
      return ctx.app.inject({
        method: 'POST',
        url: '/api/songs',
        headers: { ...headers, authorization: `Bearer ${token}` },
        payload,
      });
    };
    const created = await upload(user.aal2Token);
    expect(created.statusCode, created.body).toBe(201);
    const song = created.json() as { id: string; title: string };
    const songCount = async () => {
      const r = (await ctx.db.database.db.execute(
        sql`select count(*)::int as n from songs where artist_id = ${user.userId}`,
      )) as unknown as { rows: { n: number }[] };
      return Number(r.rows[0]!.n);
    };
    const roles = async () => {
      const r = (await ctx.db.database.db.execute(
        sql`select role from user_roles where user_id = ${applicant.userId}`,
      )) as unknown as { rows: { role: string }[] };
      return r.rows.map((x) => x.role);
    };

    const aal1 = await api.signIn(user);
    const refusals = [
      await upload(aal1),
      await api.call('PATCH', `/api/songs/${song.id}`, aal1, { title: 'Hijacked' }),
      await api.call('DELETE', `/api/songs/${song.id}`, aal1),
      await api.call('GET', '/api/admin/artist-requests', aal1),
      await api.call('POST', `/api/admin/artist-requests/${applicant.userId}/approve`, aal1, {}),
      await api.call('POST', `/api/admin/artist-requests/${applicant.userId}/reject`, aal1, {}),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('insufficient_aal');
    }
    expect(await songCount()).toBe(1);
    const stored = await api.call('GET', `/api/songs/${song.id}`, user.aal2Token);
    expect(stored.json().title).toBe('Guarded');
    expect(await roles()).toEqual(['pending_artist']);

    // The same session, once it passed the challenge.
    const aal2 = await api.passChallenge(aal1, user.factor);
    const queue = await api.call('GET', '/api/admin/artist-requests', aal2);
    expect(queue.statusCode).toBe(200);
    const edited = await api.call('PATCH', `/api/songs/${song.id}`, aal2, { title: 'Edited' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(
      (await api.call('POST', `/api/admin/artist-requests/${applicant.userId}/approve`, aal2, {}))
        .statusCode,
    ).toBe(204);
    expect(await roles()).toEqual(['artist']);
    expect((await api.call('DELETE', `/api/songs/${song.id}`, aal2)).statusCode).toBe(204);
  });

  it('leaves users without a verified factor alone at aal1, an unverified one included', async () => {
    const api = aalClient(ctx);
    const plain = await api.signUp(['artist', 'admin']);
    const drafting = await api.signUp(['artist', 'admin']);
    const draft = await api.call('POST', '/api/auth/factors', drafting.token, {
      factor_type: 'totp',
    });
    expect(draft.statusCode).toBe(201);
    for (const user of [plain, drafting]) {
      const aal1 = await api.signIn(user);
      const session = await api.call('GET', '/api/auth/session', aal1);
      expect(session.json()).toMatchObject({ aal: 'aal1', next_aal: 'aal1' });
      expect((await api.call('GET', '/api/admin/artist-requests', aal1)).statusCode).toBe(200);
      for (const a of await api.walk(aal1)) {
        expect(a.code, a.route).not.toBe('insufficient_aal');
        expect([401, 403], a.route).not.toContain(a.status);
      }
    }
  });

  it("takes the level from the session row: an aal2 claim does not lift an aal1 session, and the session's challenge lifts its older tokens", async () => {
    const api = aalClient(ctx);
    const user = await api.enrolled(['admin']);
    const aal1 = await api.signIn(user);
    const claims = decodeJwt(aal1);
    expect(claims.aal).toBe('aal1');
    const forged = await signWithAppKey(ctx, { ...claims, aal: 'aal2' });
    const refused = await api.call('GET', '/api/admin/artist-requests', forged);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('insufficient_aal');
    expect((await api.call('GET', '/api/auth/session', forged)).json()).toMatchObject({
      aal: 'aal1',
    });

    await api.passChallenge(aal1, user.factor);
    // The token issued before the challenge still says aal1; its session is aal2 now.
    expect((await api.call('GET', '/api/admin/artist-requests', aal1)).statusCode).toBe(200);
  });

  it('refuses a session at once when its user verifies a first factor elsewhere', async () => {
    const api = aalClient(ctx);
    const user = await api.signUp(['admin']);
    const otherDevice = await api.signIn(user);
    expect((await api.call('GET', '/api/admin/artist-requests', otherDevice)).statusCode).toBe(200);
    const res = await api.call('POST', '/api/auth/factors', user.token, { factor_type: 'totp' });
    await api.passChallenge(user.token, { id: res.json().id, secret: res.json().totp.secret });
    const after = await api.call('GET', '/api/admin/artist-requests', otherDevice);
    expect(after.statusCode).toBe(403);
    expect(after.json().error.code).toBe('insufficient_aal');
  });
});
