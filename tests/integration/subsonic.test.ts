// The OpenSubsonic foundation (docs/decisions/0034): the /rest router's envelopes in XML, JSON
// and JSONP, every way an app authenticates with an app password, and the web's API to create,
// list and revoke them. Every refusal is an HTTP 200 envelope with its code, and writes nothing.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp, signUp } from './auth-helpers.ts';

type Created = { id: string; name: string; password: string; created_at: string };
type Account = { userId: string; email: string; headers: { authorization: string } };
type Envelope = Record<string, unknown> & {
  status: string;
  error?: { code: number; message: string };
};

const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');
const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

describe.each(dbKinds)('the Subsonic API on %s', (kind) => {
  const ctx = useTestApp(kind);
  let alice: Account;
  let bob: Account;
  let secret: Created;

  async function account(): Promise<Account> {
    const { res, payload } = await signUp(ctx.app, { display_name: 'Someone' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ user: { id: string }; access_token: string }>();
    return {
      userId: body.user.id,
      email: payload.email,
      headers: { authorization: `Bearer ${body.access_token}` },
    };
  }
  async function create(who: Account, name: string): Promise<Created> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/subsonic/passwords',
      headers: who.headers,
      payload: { name },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  }
  const countRows = async () => {
    const r = await ctx.db.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from subsonic_app_passwords`,
    );
    return Number((r as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
  };

  /** GET /rest/<method>?<query> as JSON; the envelope's inside, after checking it is HTTP 200. */
  async function rest(method: string, query: Record<string, string>, ip = freshIp()) {
    const qs = new URLSearchParams({ v: '1.16.1', c: 'test', f: 'json', ...query });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/rest/${method}?${qs}`,
      remoteAddress: ip,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  }
  const token = (password: string, salt = 'c19b2d') => ({ t: md5(password + salt), s: salt });

  beforeAll(async () => {
    alice = await account();
    bob = await account();
    secret = await create(alice, 'Phone');
  });

  describe('browse methods through /rest', () => {
    it('answers getArtists and search3 for the signed-in app, in JSON and well-formed XML', async () => {
      const auth = { u: alice.email, p: secret.password };
      const artists = await rest('getArtists', auth);
      expect(artists).toMatchObject({
        status: 'ok',
        artists: { ignoredArticles: 'The An A' },
      });
      const found = await rest('search3', { ...auth, query: '' });
      expect(found).toMatchObject({ status: 'ok', searchResult3: expect.any(Object) });
      const xml = await ctx.app.inject({
        url: `/rest/getAlbumList2.view?${new URLSearchParams({ ...auth, type: 'newest' })}`,
        remoteAddress: freshIp(),
      });
      expect(XMLValidator.validate(xml.body)).toBe(true);
      expect(xmlParser.parse(xml.body)['subsonic-response']).toMatchObject({ status: 'ok' });
      // An id of nothing is Subsonic's 70, not an HTTP error.
      expect(await rest('getAlbum', { ...auth, id: '../../etc/passwd' })).toMatchObject({
        status: 'failed',
        error: { code: 70 },
      });
    });
  });

  describe('envelopes', () => {
    it('answers ping in XML by default, well-formed, with the envelope fields', async () => {
      const res = await ctx.app.inject({
        url: `/rest/ping.view?u=${encodeURIComponent(alice.email)}&p=${secret.password}&v=1.16.1&c=t`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      expect(XMLValidator.validate(res.body)).toBe(true);
      const root = xmlParser.parse(res.body)['subsonic-response'];
      expect(root).toMatchObject({
        xmlns: 'http://subsonic.org/restapi',
        status: 'ok',
        version: '1.16.1',
        type: 'canto',
        serverVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
        openSubsonic: 'true',
      });
    });

    it('answers JSON and JSONP, and refuses a callback that is not an identifier', async () => {
      const json = await rest('getLicense', { u: alice.email, p: secret.password });
      expect(json).toMatchObject({ status: 'ok', openSubsonic: true, license: { valid: true } });

      const jsonp = await ctx.app.inject({
        url: `/rest/ping?f=jsonp&callback=cb.done&u=${encodeURIComponent(alice.email)}&p=${secret.password}`,
      });
      expect(jsonp.headers['content-type']).toMatch(/^application\/javascript/);
      const inner = /^cb\.done\((.*)\);$/s.exec(jsonp.body)?.[1];
      expect(JSON.parse(inner!)['subsonic-response'].status).toBe('ok');

      const bad = await ctx.app.inject({ url: '/rest/ping?f=jsonp&callback=alert(1)//' });
      expect(bad.statusCode).toBe(200);
      expect(bad.body).not.toContain('alert(1)');
      expect(bad.json()['subsonic-response']).toMatchObject({
        status: 'failed',
        error: { code: 0 },
      });
    });

    it('answers an unknown method with error 0 in an HTTP 200 envelope', async () => {
      const env = await rest('noSuchMethod', { u: alice.email, p: secret.password });
      expect(env).toMatchObject({
        status: 'failed',
        error: { code: 0, message: 'Unknown method' },
      });
    });

    it('writes a failed envelope as <error code message/> in XML', async () => {
      const res = await ctx.app.inject({ url: '/rest/ping.view' });
      expect(res.statusCode).toBe(200);
      expect(XMLValidator.validate(res.body)).toBe(true);
      const root = xmlParser.parse(res.body)['subsonic-response'];
      expect(root.status).toBe('failed');
      expect(root.error).toEqual({ code: '10', message: expect.stringContaining('u') });
    });

    it('stays well-formed when a stored name holds <, &, ]]>, quotes and control characters', async () => {
      // Sign-up refuses such an email; one stored before the rule (or by hand) is what a
      // client's title would be: the XML must still parse, the JSON keep every character.
      const who = await account();
      const pw = await create(who, 'a <b> & ]]> "q"');
      const nasty = `x<b>&c]]>'q"\u0001\u0008\u001f${Date.now()}@example.com`;
      await ctx.db.database.db.execute(
        sql`update users set email = ${nasty} where id = ${who.userId}`,
      );
      const xml = await ctx.app.inject({
        url: `/rest/getUser?u=${encodeURIComponent(nasty)}&p=${pw.password}`,
      });
      expect(xml.statusCode).toBe(200);
      expect(XMLValidator.validate(xml.body)).toBe(true);
      const user = xmlParser.parse(xml.body)['subsonic-response'].user;
      expect(user.username).toBe([...nasty].filter((c) => c >= ' ').join(''));
      const json = await rest('getUser', { u: nasty, p: pw.password });
      expect((json.user as { username: string }).username).toBe(nasty);
    });

    it('takes parameters from a form-encoded POST body as well as the query', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/rest/getUser.view?f=json',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          u: alice.email,
          ...token(secret.password),
          username: alice.email,
        }).toString(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()['subsonic-response']).toMatchObject({
        status: 'ok',
        user: { username: alice.email, streamRole: true, adminRole: false },
      });
    });

    it('answers CORS preflights and marks answers open to any origin', async () => {
      const pre = await ctx.app.inject({
        method: 'OPTIONS',
        url: '/rest/ping.view',
        headers: {
          origin: 'https://player.example',
          'access-control-request-method': 'POST',
        },
      });
      expect(pre.statusCode).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      expect(pre.headers['access-control-allow-methods']).toContain('POST');
      const res = await ctx.app.inject({
        url: '/rest/getOpenSubsonicExtensions?f=json',
        headers: { origin: 'https://player.example' },
      });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('never answers a 5xx or a JSON error page for a malformed form body', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/rest/ping.view?f=json',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'u=%00x',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()['subsonic-response'].status).toBe('failed');
    });
  });

  describe('methods', () => {
    it('lists the OpenSubsonic extensions without authentication', async () => {
      const env = await rest('getOpenSubsonicExtensions', {});
      expect(env.status).toBe('ok');
      const names = (env.openSubsonicExtensions as Array<{ name: string }>).map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['apiKeyAuthentication', 'formPost']));
    });

    it('answers the music folder, the scan status and startScan', async () => {
      const auth = { u: alice.email, p: secret.password };
      expect((await rest('getMusicFolders', auth)).musicFolders).toEqual({
        musicFolder: [{ id: 1, name: 'Music' }],
      });
      const scan = await rest('getScanStatus', auth);
      expect(scan.scanStatus).toEqual({ scanning: false, count: expect.any(Number) });
      expect((await rest('startScan', auth)).scanStatus).toMatchObject({ scanning: false });
    });

    it("refuses another user's getUser to a listener (50) and grants it to an admin", async () => {
      const env = await rest('getUser', {
        u: alice.email,
        p: secret.password,
        username: bob.email,
      });
      expect(env.error?.code).toBe(50);
      await ctx.db.database.db.execute(
        sql`insert into user_roles (user_id, role) values (${bob.userId}, 'admin')`,
      );
      const bobs = await create(bob, 'Desktop');
      const ok = await rest('getUser', { u: bob.email, p: bobs.password, username: alice.email });
      expect(ok.user).toMatchObject({ username: alice.email, adminRole: false });
      const me = await rest('getUser', { u: bob.email, p: bobs.password, username: bob.email });
      expect(me.user).toMatchObject({ adminRole: true });
      const none = await rest('getUser', {
        u: bob.email,
        p: bobs.password,
        username: 'nobody@example.com',
      });
      expect(none.error?.code).toBe(70);
    });
  });

  describe('authentication', () => {
    it('accepts u+t+s, u+p plain, u+p enc: hex and apiKey, and the email in any case', async () => {
      const ok = (env: Envelope) => expect(env.status, JSON.stringify(env)).toBe('ok');
      ok(await rest('ping', { u: alice.email, ...token(secret.password) }));
      ok(await rest('ping', { u: alice.email.toUpperCase(), ...token(secret.password, 'x') }));
      ok(await rest('ping', { u: alice.email, p: secret.password }));
      const hex = Buffer.from(secret.password).toString('hex');
      ok(await rest('ping', { u: alice.email, p: `enc:${hex}` }));
      ok(await rest('ping', { apiKey: secret.password }));
    });

    it('refuses a wrong password and an unknown user alike (40), and missing parts (10)', async () => {
      const wrong = await rest('ping', { u: alice.email, p: 'not-it' });
      const unknown = await rest('ping', { u: 'nobody@example.com', p: secret.password });
      expect(wrong.error).toEqual({ code: 40, message: 'Wrong username or password' });
      expect(unknown.error).toEqual(wrong.error);
      expect((await rest('ping', { u: alice.email, ...token('nope') })).error?.code).toBe(40);
      expect((await rest('ping', { p: secret.password })).error?.code).toBe(10);
      expect((await rest('ping', { u: alice.email })).error?.code).toBe(10);
      expect((await rest('ping', { u: alice.email, t: md5('x') })).error?.code).toBe(10);
      expect((await rest('ping', { u: alice.email, p: 'enc:zz' })).error?.code).toBe(40);
    });

    it('refuses a 10 kB salt without a 5xx, and apiKey with u (43) or a bad apiKey (44)', async () => {
      const big = 'a'.repeat(10_000);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/rest/ping?f=json',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          u: alice.email,
          t: md5(secret.password + big),
          s: big,
        }).toString(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()['subsonic-response'].error.code).toBe(40);
      expect((await rest('ping', { apiKey: secret.password, u: alice.email })).error?.code).toBe(
        43,
      );
      expect((await rest('ping', { apiKey: 'f'.repeat(56) })).error?.code).toBe(44);
    });

    it('lets an account with MFA use its app passwords', async () => {
      const carol = await account();
      const pw = await create(carol, 'Car');
      await ctx.db.database.db
        .execute(
          sql`insert into mfa_factors (user_id, type, verified_at, secret) values (${carol.userId}, 'totp', now(), 'x')`,
        )
        .catch(() => undefined);
      expect((await rest('ping', { u: carol.email, p: pw.password })).status).toBe('ok');
    });

    it('stops a revoked password at once, for token, password and apiKey', async () => {
      const pw = await create(alice, 'Old tablet');
      expect((await rest('ping', { u: alice.email, p: pw.password })).status).toBe('ok');
      const del = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/me/subsonic/passwords/${pw.id}`,
        headers: alice.headers,
      });
      expect(del.statusCode).toBe(204);
      expect((await rest('ping', { u: alice.email, p: pw.password })).error?.code).toBe(40);
      expect((await rest('ping', { u: alice.email, ...token(pw.password) })).error?.code).toBe(40);
      expect((await rest('ping', { apiKey: pw.password })).error?.code).toBe(44);
      // The others still work.
      expect((await rest('ping', { u: alice.email, p: secret.password })).status).toBe('ok');
    });

    // Sign-in holds credentials in memory; a write by another process (plain SQL here) reaches
    // this one through the database's announcement, well within the cache's minute.
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
      return check();
    };

    it('forgets a password another process revoked, and roles another process changed', async () => {
      const dave = await account();
      const pw = await create(dave, 'Desk');
      const who = async () =>
        (await rest('getUser', { u: dave.email, p: pw.password, username: dave.email })) as {
          status: string;
          user?: { adminRole: boolean };
        };
      expect((await who()).user?.adminRole).toBe(false);
      await ctx.db.database.db.execute(
        sql`insert into user_roles (user_id, role) values (${dave.userId}, 'admin')`,
      );
      expect(await until(async () => (await who()).user?.adminRole === true)).toBe(true);
      await ctx.db.database.db.execute(sql`delete from subsonic_app_passwords where id = ${pw.id}`);
      expect(await until(async () => (await who()).status === 'failed')).toBe(true);
      expect((await rest('ping', { apiKey: pw.password })).error?.code).toBe(44);
    });

    it('is rate-limited like sign-in: after 10 failures from one address even the right one is refused', async () => {
      const ip = freshIp();
      for (let i = 0; i < 10; i++)
        expect((await rest('ping', { u: alice.email, p: `wrong${i}` }, ip)).error?.code).toBe(40);
      const refused = await rest('ping', { u: alice.email, p: secret.password }, ip);
      expect(refused.error).toEqual({
        code: 40,
        message: 'Too many failed sign-in attempts. Try again later.',
      });
      // Another address is not affected.
      expect((await rest('ping', { u: alice.email, p: secret.password })).status).toBe('ok');
    });
  });

  describe('the app password API', () => {
    it('shows the secret once, on creation; the list never holds it', async () => {
      const made = await create(alice, 'Laptop');
      expect(made.password).toMatch(/^[0-9a-f]{56}$/);
      const list = await ctx.app.inject({
        url: '/api/me/subsonic/passwords',
        headers: alice.headers,
      });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(made.password);
      expect(list.body).not.toContain(secret.password);
      const items = list.json<{ items: Array<Record<string, unknown>> }>().items;
      expect(items.map((i) => i.name)).toEqual(expect.arrayContaining(['Phone', 'Laptop']));
      expect(Object.keys(items[0]!).sort()).toEqual(['created_at', 'id', 'name']);
      // Stored sealed, never as the secret itself.
      const stored = await ctx.db.database.db.execute(
        sql`select sealed_secret from subsonic_app_passwords where id = ${made.id}`,
      );
      expect(JSON.stringify(stored)).not.toContain(made.password);
    });

    it("answers 404 for another user's id and changes nothing", async () => {
      const before = await countRows();
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/me/subsonic/passwords/${secret.id}`,
        headers: bob.headers,
      });
      expect(res.statusCode).toBe(404);
      expect(await countRows()).toBe(before);
      expect((await rest('ping', { u: alice.email, p: secret.password })).status).toBe('ok');
    });

    it('refuses an empty name and a signed-out caller', async () => {
      const empty = await ctx.app.inject({
        method: 'POST',
        url: '/api/me/subsonic/passwords',
        headers: alice.headers,
        payload: { name: '   ' },
      });
      expect(empty.statusCode).toBe(400);
      const anon = await ctx.app.inject({ url: '/api/me/subsonic/passwords' });
      expect(anon.statusCode).toBe(401);
    });
  });
});
