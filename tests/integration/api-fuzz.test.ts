import { execFileSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/server/app.ts';
import { ErrorCode } from '../../src/core/errors.ts';
import type { Access } from '../../src/server/http/access-policy.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { freshIp, signIn, signUp } from './auth-helpers.ts';
import {
  casesOf,
  credentialCases,
  LONG,
  multipartBody,
  operationsOf,
  type FuzzCase,
  type FuzzContext,
  type Operation,
} from './api-fuzz-cases.ts';
import {
  catalogueTrack,
  makePng,
  makeWav,
  multipart,
  rows,
  startFakeCatalogue,
  storedFiles,
  type FakeCatalogue,
} from './songs-helpers.ts';

/**
 * No 5xx for bad input, proven systematically. Every operation of the OpenAPI
 * document gets bad path parameters, query values, JSON and multipart bodies, content types
 * and credentials (api-fuzz-cases.ts), as each role. Every answer must be a 4xx with a stable
 * `{ error: { code, message } }` (noise a read may ignore: anything below 500), a caller the
 * route's policy refuses must be refused before its input is looked at, and each batch (one
 * operation, one role) must leave every table and every stored file exactly as it was.
 */

const STABLE_CODES = new Set<string>(
  Object.values(ErrorCode).filter((c) => c !== ErrorCode.internal),
);
// Bad request, unauthenticated, forbidden, not found, payload too large, URI too long,
// unsupported media type, range not satisfiable, unprocessable. Not 429: every request comes
// from its own address, so a 429 would mean a rate limit hid the input check under test.
const INVALID_STATUSES = new Set([400, 401, 403, 404, 413, 414, 415, 416, 422]);
// What the router answers before any route (and so before any policy) is known.
const ROUTER_MESSAGES = new Set(['Malformed URL', 'A URL path segment is too long']);

type Role = 'anonymous' | 'listener' | 'artist' | 'admin';
const ROLES: Role[] = ['anonymous', 'listener', 'artist', 'admin'];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

type Answer = { statusCode: number; body: string };
type Failure = { role: Role; case: string; status: number; body: string };

/** The status a role's caller gets from the route's policy, before input; null if admitted. */
function gateOf(role: Role, access: Access | undefined): number | null {
  if (!access || access === 'public') return null;
  if (role === 'anonymous') return 401;
  // 'owner' is signed-in at the edge; ownership is checked by the service, after validation.
  if (access === 'artist' || access === 'admin') return role === access ? null : 403;
  return null;
}

function errorOf(res: Answer): { code?: unknown; message?: unknown } | null {
  try {
    return JSON.parse(res.body).error ?? {};
  } catch {
    return null;
  }
}

function tinyWebDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-fuzz-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Canto</title>');
  return dir;
}

describe.each(dbKinds)('API fuzz on %s', (kind) => {
  let fake: FakeCatalogue;
  // Filled before useTestApp's beforeAll reads it: the fake's port is only known once it listens.
  const env: Record<string, string> = {};
  beforeAll(async () => {
    // Search falls back to the external catalogue: a local fake, so bad queries reach it too.
    fake = await startFakeCatalogue();
    fake.tracks = [catalogueTrack(1, 'External One'), catalogueTrack(2, 'External Two')];
    env.CATALOGUE_URL = fake.url;
    // The fake listens on 127.0.0.1, which the outbound guard refuses unless told otherwise.
    env.CATALOGUE_ALLOW_PRIVATE = '1';
  });
  afterAll(() => fake?.close());
  // A built web app of one page, so `/media/../x` (resolved to a page) is answered as in
  // production whether or not dist/web exists on this checkout.
  const ctx = useTestApp(kind, env, { webDir: tinyWebDir });

  type User = { id: string; email: string; password: string; headers: { authorization: string } };
  const users = {} as Record<Exclude<Role, 'anonymous'>, User>;
  let song: { id: string; file_url: string };
  let wav: Buffer;
  let png: Buffer;
  let operations: Operation[];
  let fuzz: FuzzContext;

  beforeAll(async () => {
    const roles = createRolesRepository(ctx.db.database.db);
    for (const role of ['listener', 'artist', 'admin'] as const) {
      const { res, payload } = await signUp(ctx.app, { display_name: `Fuzz ${role}` });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().user.id;
      if (role !== 'listener') await roles.grant(id, role);
      users[role] = { id, ...payload, headers: bearer(res.json().access_token) };
    }
    wav = makeWav(0.5);
    png = await makePng(64, 64);
    // A song of the artist's own, so owner routes get past ownership to their input.
    const { headers, payload } = multipart([
      { name: 'title', value: 'Fuzz Target' },
      { name: 'file', filename: 'a.wav', data: wav },
      { name: 'cover', filename: 'c.png', data: png },
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...users.artist.headers },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    song = res.json();
    const doc = await ctx.app.inject({ url: '/api/docs/json' });
    operations = operationsOf(doc.json());

    // file_url may carry a signature (?e=&s=): the real one, so media cases reach the file.
    const audio = new URL(song.file_url, 'http://canto.test');
    const [, , bucket, key] = audio.pathname.split('/');
    fuzz = {
      // Real rows and files, so a bad value elsewhere is the only thing wrong with a request.
      pathValue: (name) =>
        ({ id: song.id, userId: users.listener.id, bucket: bucket!, key: key! })[name] ??
        '00000000-0000-4000-8000-000000000000',
      queryValue: (op, name) =>
        op.path.startsWith('/media/') ? (audio.searchParams.get(name) ?? undefined) : undefined,
      sampleFile: (name, schema) =>
        /image|cover/i.test(`${name} ${schema.description ?? ''}`)
          ? { filename: 'c.png', data: png }
          : { filename: 'a.wav', data: wav },
    };
  });

  const accessOf = (op: Operation) => {
    const url = op.path.replace(/\{(\w+)\}/g, ':$1');
    return ctx.app.routePolicies.find((p) => p.url === url && p.method === op.method)?.access;
  };

  /**
   * Every table's rows as one checksum each, and the stored files. rate_limits is left out on
   * purpose: counting an attempt is what a refused sign-in or recovery is meant to do, and the
   * counters (hashed keys, numbers) are nothing any other request reads back as data.
   */
  async function snapshot() {
    const tables = await rows<{ table_name: string }>(
      ctx,
      sql`select table_name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE'
            and table_name <> 'rate_limits'
          order by table_name`,
    );
    const sums = await rows<{ t: string; h: string }>(
      ctx,
      sql.raw(
        tables
          .map(
            ({ table_name: t }) =>
              `select '${t}' as t, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as h from "${t}" x`,
          )
          .join(' union all '),
      ),
    );
    return {
      tables: Object.fromEntries(sums.map((r) => [r.t, r.h])),
      files: storedFiles(ctx.env.dataDir),
    };
  }

  function problemWith(c: FuzzCase, res: Answer, gate: number | null): string | null {
    if (res.statusCode >= 500) return 'server error';
    // The Subsonic protocol (ADR 0034) answers every method, refusals included, as an HTTP 200
    // envelope; only the router's own refusals (a URL that does not parse) come before it.
    // (`/rest/..` resolves to the web app, outside it: the general rules below.)
    if (c.url.startsWith('/rest/') && !/^\/rest\/(\.\.|%2e%2e)(\/|\?|$)/i.test(c.url)) {
      if (res.statusCode !== 200)
        return [400, 414].includes(res.statusCode)
          ? null
          : 'a Subsonic answer that is not HTTP 200';
      if (c.method !== 'HEAD' && !res.body.includes('subsonic-response'))
        return 'not a Subsonic envelope';
      return null;
    }
    if (c.expect === 'invalid' && !INVALID_STATUSES.has(res.statusCode))
      return 'invalid input not answered with a 4xx';
    if (res.statusCode < 400)
      return gate === null ? null : 'a caller the access policy refuses was let in';
    const error = c.method === 'HEAD' ? { code: 'x', message: 'x' } : errorOf(res);
    if (c.method !== 'HEAD') {
      if (!error) return 'error body is not JSON';
      if (typeof error.code !== 'string' || !STABLE_CODES.has(error.code))
        return `unstable error code ${String(error.code)}`;
      if (typeof error.message !== 'string' || !error.message) return 'no error message';
    }
    if (gate !== null && res.statusCode !== gate) {
      // Only the router may answer first: a URL that does not decode or route at all.
      const message = String(error?.message ?? '');
      const routed = ROUTER_MESSAGES.has(message) || message.startsWith('No route for');
      if (!(routed || (c.method === 'HEAD' && [400, 404, 414].includes(res.statusCode))))
        return `expected ${gate} from the access policy before any input check`;
    }
    return null;
  }

  const sessionAlive = async (user: User) =>
    (await ctx.app.inject({ url: '/api/auth/session', headers: user.headers })).statusCode === 200;

  async function signInAgain(user: User) {
    user.headers = bearer(await signIn(ctx.app, user.email, user.password));
  }

  /** Runs a batch as a role and proves it changed nothing; returns what went wrong. */
  async function runBatch(
    role: Role,
    label: string,
    cases: FuzzCase[],
    gate: number | null,
  ): Promise<Failure[]> {
    const failures: Failure[] = [];
    const before = await snapshot();
    for (const c of cases) {
      const auth = role === 'anonymous' || c.ownAuth ? {} : users[role].headers;
      const res = await ctx.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: { ...auth, ...c.headers },
        payload: c.payload,
        // Each request from its own address: the rate limiters must not mask validation.
        remoteAddress: freshIp(),
      });
      const problem = problemWith(c, res, gate);
      if (problem)
        failures.push({
          role,
          case: `${c.method} ${c.url.slice(0, 120)} — ${c.name}: ${problem}`,
          status: res.statusCode,
          body: res.body.slice(0, 300),
        });
    }
    // A batch that ended the caller's session would turn the rest into 401s: report it, and
    // sign in again so later batches still test their input.
    if (role !== 'anonymous' && !(await sessionAlive(users[role]))) {
      failures.push({ role, case: `${label} ended the session`, status: 0, body: '' });
      await signInAgain(users[role]);
    }
    const after = await snapshot();
    const changed = Object.keys(before.tables).filter((t) => before.tables[t] !== after.tables[t]);
    if (changed.length)
      failures.push({ role, case: `${label} changed ${changed.join(', ')}`, status: 0, body: '' });
    if (JSON.stringify(before.files) !== JSON.stringify(after.files))
      failures.push({
        role,
        case: `${label} changed stored files`,
        status: 0,
        body: JSON.stringify({ before: before.files, after: after.files }),
      });
    return failures;
  }

  it('refuses the two 500s found by hand: a NUL genre and a multipart body without a boundary', async () => {
    const search = await ctx.app.inject({
      url: '/api/search?q=a&genre=%00',
      headers: users.listener.headers,
    });
    expect(search.statusCode, search.body).toBe(400);
    expect(search.json().error).toMatchObject({
      code: 'validation_failed',
      message: 'Text must not contain NUL characters',
      details: { field: 'genre', context: 'querystring' },
    });

    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...users.artist.headers, 'content-type': 'multipart/form-data' },
      payload: multipartBody([{ name: 'file', filename: 'a.wav', data: wav }]),
    });
    expect(upload.statusCode, upload.body).toBe(400);
    expect(upload.json().error).toEqual({
      code: 'validation_failed',
      message: 'Malformed multipart body',
    });
  });

  it('stores a file whose tags hold NUL with the NUL cleaned out (found by this fuzzing)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...users.artist.headers, 'content-type': 'multipart/form-data; boundary=fuzz' },
      payload: multipartBody([
        {
          name: 'file',
          filename: 'a.flac',
          data: flacWithTags(['GENRE=Ro\u0000ck', 'TITLE=Ti\u0000tle']),
        },
      ]),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ title: 'Title', genre: 'Rock', duration: 1 });
  });

  it('reads every operation, and the multipart bodies, from the OpenAPI document', () => {
    const names = operations.map((op) => `${op.method} ${op.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/search',
        'POST /api/auth/sign-up',
        'PATCH /api/songs/{id}',
        'GET /media/{bucket}/{key}',
      ]),
    );
    const upload = operations.find((op) => op.method === 'POST' && op.path === '/api/songs');
    expect(upload?.body?.['multipart/form-data']).toMatchObject({
      required: ['file'],
      properties: { file: { format: 'binary' }, title: { maxLength: 200 } },
    });
    // Every operation is covered by at least a few cases.
    for (const op of operations)
      expect(casesOf(op, fuzz).length + credentialCases(op, fuzz, false).length).toBeGreaterThan(5);
  });

  for (const role of ROLES) {
    it(
      `answers bad input with a 4xx and changes nothing, as ${role}`,
      { timeout: 120_000 },
      async () => {
        const failures: Failure[] = [];
        let count = 0;
        for (const op of operations) {
          const access = accessOf(op);
          const cases = casesOf(op, fuzz);
          if (role === 'anonymous') cases.push(...credentialCases(op, fuzz, access === 'public'));
          count += cases.length;
          failures.push(
            ...(await runBatch(role, `${op.method} ${op.path}`, cases, gateOf(role, access))),
          );
        }
        expect(count).toBeGreaterThan(500);
        expect(failures).toEqual([]);
      },
    );
  }

  describe('paths outside the document: the web app, unknown API paths, odd media paths', () => {
    let app: App;
    let webDir: string;
    beforeAll(async () => {
      // A web build of our own: whether dist/web exists depends on who ran `npm run build`.
      webDir = path.join(ctx.env.dataDir, 'web');
      fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
      fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Canto</title>');
      fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'export {};');
      ({ app } = await buildApp({
        env: ctx.env,
        database: ctx.db.database,
        logger: false,
        webDir,
      }));
      await app.ready();
    });
    afterAll(() => app?.close());

    const urls = [
      '/%00',
      '/a%00b',
      '/index.html%00',
      '/assets/app.js%00',
      '/assets/..%2f..%2fpackage.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/..%2f..%2fetc%2fpasswd',
      '/%5c..%5c..%5cetc%5cpasswd',
      `/${LONG}`,
      '/%FF%FE',
      '/%E0%A4%A',
      '//etc/passwd',
      '/api/%00',
      '/api/nope%00?x=%00',
      `/api/${LONG}`,
      '/api/docs/%00',
      '/api/docs/static/..%2f..%2fpackage.json',
      '/.well-known/%00',
      '/media/%00',
      '/media/music',
      '/media/music/',
      '/media/music/a/b',
      `/media/music/${'a'.repeat(300)}.wav`,
      '/media/music/..%2f..%2f..%2fpackage.json',
      '/media/music/%2e%2e',
      '/media/../../package.json',
    ];

    it('never answers with a 5xx, and API and media misses are JSON errors', async () => {
      const before = await snapshot();
      const failures: string[] = [];
      for (const url of urls) {
        for (const method of ['GET', 'HEAD', 'POST', 'DELETE'] as const) {
          const res = await app.inject({
            method,
            url,
            remoteAddress: freshIp(),
            ...(method === 'POST'
              ? { payload: '{"a":', headers: { 'content-type': 'application/json' } }
              : {}),
          });
          const where = `${method} ${url.slice(0, 80)} → ${res.statusCode}`;
          if (res.statusCode >= 500)
            failures.push(`${where}: server error ${res.body.slice(0, 200)}`);
          const isApi = /^\/(api|media)\//.test(new URL(url, 'http://x').pathname);
          if (isApi && res.statusCode >= 400 && method !== 'HEAD') {
            const error = errorOf(res);
            if (!error || !STABLE_CODES.has(String(error.code)))
              failures.push(`${where}: not a JSON error ${res.body.slice(0, 200)}`);
          }
          if (res.statusCode === 200 && res.body.includes('"name": "canto"'))
            failures.push(`${where}: served a file outside the web build`);
        }
      }
      expect(failures).toEqual([]);
      expect(await snapshot()).toEqual(before);
    });
  });
});

/**
 * A real 1 s FLAC (8 kHz mono, made by ffmpeg: uploads are decoded) whose metadata is only
 * its STREAMINFO and the given Vorbis comments, which may hold any byte.
 */
function flacWithTags(comments: string[]): Buffer {
  const made = path.join(os.tmpdir(), `canto-fuzz-${process.pid}.flac`);
  execFileSync(ffmpegPackage.path, [
    ...['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000'],
    ...['-t', '1', '-ac', '1', '-c:a', 'flac', '-y', made],
  ]);
  const flac = fs.readFileSync(made);
  fs.rmSync(made, { force: true });
  // Metadata blocks follow 'fLaC': keep STREAMINFO (always first), drop the rest.
  let at = 4;
  let info: Buffer | null = null;
  for (let last = false; !last;) {
    last = (flac[at]! & 0x80) !== 0;
    const length = flac.readUIntBE(at + 1, 3);
    if ((flac[at]! & 0x7f) === 0) info = flac.subarray(at + 4, at + 4 + length);
    at += 4 + length;
  }
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const text = (s: string) => {
    const b = Buffer.from(s);
    return Buffer.concat([u32(b.length), b]);
  };
  const vorbis = Buffer.concat([text('fuzz'), u32(comments.length), ...comments.map(text)]);
  const block = (type: number, last: boolean, body: Buffer) =>
    Buffer.concat([
      Buffer.from([
        (last ? 0x80 : 0) | type,
        body.length >> 16,
        (body.length >> 8) & 255,
        body.length & 255,
      ]),
      body,
    ]);
  return Buffer.concat([
    Buffer.from('fLaC'),
    block(0, false, info!),
    block(4, true, vorbis),
    flac.subarray(at),
  ]);
}
