import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { startS3rver } from '../helpers/s3rver.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { EnvError, parseEnv } from '../../src/server/env.ts';
import { createMediaUrlSigner } from '../../src/server/security/media-url-signer.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import { createS3Storage } from '../../src/server/storage/s3-storage.ts';
import { newKey, type Bucket, type Storage } from '../../src/server/storage/storage.ts';
import { TestClock, testEnv, useTestApp, type TestContext } from '../helpers/test-app.ts';
import { createTestDatabase } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

/** The URL with the signature's first character changed (always a change, whatever it was). */
const tamper = (url: string) =>
  url.replace(/s=(.)/, (_, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);

/*
 * Media URLs are signed and expiring (docs/decisions/0010): the API signs the stored
 * `/media/<bucket>/<key>` of audio when it serializes a row; the media route lets a request
 * through only with a valid, unexpired signature for exactly that path, and then answers
 * itself, with X-Accel-Redirect (MEDIA_OFFLOAD=x-accel) or with a redirect to the store or
 * a CDN (STORAGE=s3).
 */

const HOUR = 3600 * 1000;
const bytes = (n: number, seed = 1) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
};
const SIGNED = /^\/media\/music\/[0-9a-f-]{36}\.wav\?e=(\d+)&s=[\w-]{43}&n=[\w-]{22}$/;
const query = (url: string) => new URL(url, 'http://x').searchParams;

async function putFile(storage: Storage, bucket: Bucket, key: string, data: Buffer) {
  const type = key.endsWith('.wav') ? 'audio/wav' : key.endsWith('.svg') ? 'image/svg+xml' : '';
  await storage.put(bucket, key, Readable.from([data]), {
    contentType: type || 'image/webp',
    maxBytes: 1e7,
  });
}

/** A song row pointing at stored files, as an upload leaves it. */
async function insertSong(ctx: TestContext, fileKey: string, coverKey: string | null) {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, genre, file_url, file_key, cover_art_url, cover_art_key)
        values ('Signed', 'Pop', ${`/media/music/${fileKey}`}, ${`music/${fileKey}`},
                ${coverKey && `/media/cover-art/${coverKey}`}, ${coverKey && `cover-art/${coverKey}`})
        returning id`,
  );
  return row!.id;
}

describe('signed media URLs (local storage, served by Node)', () => {
  const ctx = useTestApp('pglite');
  const audio = bytes(50_000);
  const other = bytes(20_000, 2);
  const wav = newKey('wav');
  const otherWav = newKey('wav');
  const episode = newKey('wav');
  const cover = newKey('webp');
  let songId: string;
  let listener: TestUser;

  beforeAll(async () => {
    const storage = createLocalStorage(path.join(ctx.env.dataDir, 'media'));
    await putFile(storage, 'music', wav, audio);
    await putFile(storage, 'music', otherWav, other);
    await putFile(storage, 'podcasts', episode, audio);
    await putFile(storage, 'cover-art', cover, bytes(1000, 3));
    songId = await insertSong(ctx, wav, cover);
    listener = await makeUser(ctx);
  });

  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => ctx.app.inject({ method, url });
  const song = async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/songs/${songId}`,
      headers: listener.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { file_url: string; cover_art_url: string };
  };
  const signer = () => createMediaUrlSigner({ secretKey: ctx.env.secretKey!, clock: ctx.clock });
  type Res = { statusCode: number; body: string; rawPayload: Buffer; json(): any };
  const denied = (res: Res, reason: string) => {
    expect(res.statusCode, res.body).toBe(403);
    // A HEAD answer has no body to read the code from.
    if (res.body) {
      expect(res.json().error).toMatchObject({ code: 'permission_denied', details: { reason } });
    }
    expect(res.rawPayload.includes(audio.subarray(0, 32))).toBe(false);
  };

  it('hands out signed audio URLs and public cover URLs; the database keeps the bare path', async () => {
    const dto = await song();
    expect(dto.file_url).toMatch(SIGNED);
    expect(dto.file_url).toBe(signer().sign(`/media/music/${wav}`));
    // Serialized again in the same window: the same string, so caches keep working.
    expect((await song()).file_url).toBe(dto.file_url);
    expect(dto.cover_art_url).toBe(`/media/cover-art/${cover}`);
    const [row] = await rows<{ file_url: string }>(
      ctx,
      sql`select file_url from songs where id = ${songId}`,
    );
    expect(row!.file_url).toBe(`/media/music/${wav}`);

    const res = await get(dto.file_url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(audio)).toBe(true);
    expect((await get(dto.cover_art_url)).statusCode).toBe(200);
  });

  it('gives the same URL within a window and a URL valid for 6 to 12 hours', async () => {
    const path = `/media/music/${wav}`;
    const first = signer().sign(path);
    const e = Number(query(first).get('e'));
    const now = () => Math.floor(ctx.clock.now().getTime() / 1000);
    expect(e - now()).toBeGreaterThanOrEqual(6 * 3600);
    expect(e - now()).toBeLessThanOrEqual(12 * 3600);
    expect(e % (6 * 3600)).toBe(0);
    const started = ctx.clock.now().getTime();
    try {
      // Until the window turns: byte for byte the same URL.
      ctx.clock.advance(Math.max(0, (e - 6 * 3600 - now()) * 1000 - 1000));
      expect(signer().sign(path)).toBe(first);
      // The next window signs anew; the old URL still plays until its expiry.
      ctx.clock.advance(2000);
      const next = signer().sign(path);
      expect(next).not.toBe(first);
      expect(Number(query(next).get('e'))).toBe(e + 6 * 3600);
      expect((await get(first)).statusCode).toBe(200);
      expect((await get(next)).statusCode).toBe(200);
    } finally {
      ctx.clock.advance(started - ctx.clock.now().getTime());
    }
  });

  it('refuses a bare path with 403, for GET, HEAD and Range', async () => {
    denied(await get(`/media/music/${wav}`), 'missing');
    denied(await get(`/media/music/${wav}`, 'HEAD'), 'missing');
    denied(
      await ctx.app.inject({
        method: 'GET',
        url: `/media/music/${wav}`,
        headers: { range: 'bytes=0-99' },
      }),
      'missing',
    );
    denied(await get(`/media/podcasts/${episode}`), 'missing');
  });

  it('refuses a tampered signature or expiry', async () => {
    const good = (await song()).file_url;
    const q = query(good);
    const e = q.get('e')!;
    const s = q.get('s')!;
    const path = `/media/music/${wav}`;
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    for (const url of [
      `${path}?e=${e}&s=${flip(s[0]!)}${s.slice(1)}`,
      `${path}?e=${e}&s=${s.slice(0, -1)}${flip(s.at(-1)!)}`,
      `${path}?e=${Number(e) + 1}&s=${s}`,
      `${path}?e=${Number(e) + 6 * 3600}&s=${s}`,
      `${path}?e=${e}`,
      `${path}?s=${s}`,
      `${path}?e=${e}&s=${s.slice(1)}`,
      `${path}?e=${e}&s=${s}x`,
      `${path}?e=${e}&s=${s}&s=${s}`,
      `${path}?e=${e}&e=${e}&s=${s}`,
      `${path}?e=-1&s=${s}`,
      `${path}?e=1e12&s=${s}`,
      `${path}?e=${'9'.repeat(40)}&s=${s}`,
      `${path}?e=${e}&s=${'_'.repeat(43)}`,
    ]) {
      denied(await get(url), 'invalid');
    }
  });

  it("refuses one file's signature on another path", async () => {
    const good = (await song()).file_url;
    const swapped = good.replace(wav, otherWav);
    denied(await get(swapped), 'invalid');
    denied(await get(good.replace('/media/music/', '/media/podcasts/')), 'invalid');
    // Each file's own signed URL works.
    expect((await get(signer().sign(`/media/music/${otherWav}`))).statusCode).toBe(200);
    expect((await get(signer().sign(`/media/podcasts/${episode}`))).statusCode).toBe(200);
  });

  it('refuses an expired URL (injected clock)', async () => {
    const good = (await song()).file_url;
    const e = Number(query(good).get('e')) * 1000;
    const started = ctx.clock.now().getTime();
    try {
      ctx.clock.advance(e - started - 1000);
      expect((await get(good)).statusCode).toBe(200);
      ctx.clock.advance(1000);
      denied(await get(good), 'expired');
      denied(await get(good, 'HEAD'), 'expired');
    } finally {
      ctx.clock.advance(started - ctx.clock.now().getTime());
    }
  });

  it('keeps a signed response cacheable only until the URL expires', async () => {
    const good = (await song()).file_url;
    const e = Number(query(good).get('e'));
    const res = await get(good);
    const left = e - Math.floor(ctx.clock.now().getTime() / 1000);
    expect(res.headers['cache-control']).toBe(`public, max-age=${left}, immutable`);
    const notModified = await ctx.app.inject({
      method: 'GET',
      url: good,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers['cache-control']).toBe(`public, max-age=${left}, immutable`);
  });

  it('answers 404 for an impossible location before looking at signatures', async () => {
    for (const url of [`/media/private/${wav}`, '/media/music/secret.wav', '/media/music/a']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    // A missing file under a valid signature is a 404 as well.
    const res = await get(signer().sign(`/media/music/${newKey('wav')}`));
    expect(res.statusCode).toBe(404);
  });
});

describe('MEDIA_OFFLOAD=x-accel (local storage)', () => {
  const ctx = useTestApp('pglite', { MEDIA_OFFLOAD: 'x-accel' });
  const audio = bytes(40_000);
  const wav = newKey('wav');
  const svg = newKey('svg');
  let signed: string;

  beforeAll(async () => {
    const storage = createLocalStorage(path.join(ctx.env.dataDir, 'media'));
    await putFile(storage, 'music', wav, audio);
    await putFile(
      storage,
      'cover-art',
      svg,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    );
    signed = createMediaUrlSigner({ secretKey: ctx.env.secretKey!, clock: ctx.clock }).sign(
      `/media/music/${wav}`,
    );
  });

  it('answers a verified request with X-Accel-Redirect and the headers nginx keeps', async () => {
    const direct = await ctx.app.inject({ method: 'HEAD', url: signed });
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await ctx.app.inject({ method, url: signed, headers: { range: 'bytes=0-9' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-accel-redirect']).toBe(`/_canto_media/music/${wav}`);
      expect(res.headers['content-type']).toBe('audio/wav');
      expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+, immutable$/);
      expect(res.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(res.headers.etag).toBe(direct.headers.etag);
      expect(res.headers['last-modified']).toBeTruthy();
      // nginx sends the bytes, with its own Range handling and Accept-Ranges.
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers['content-range']).toBeUndefined();
      expect(res.headers['accept-ranges']).toBeUndefined();
    }
  });

  it('keeps the SVG policy header for nginx to pass on', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/media/cover-art/${svg}` });
    expect(res.headers['x-accel-redirect']).toBe(`/_canto_media/cover-art/${svg}`);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
  });

  it('never redirects nginx to a file for a bad request', async () => {
    const cases = [
      { url: `/media/music/${wav}`, status: 403 },
      { url: tamper(signed), status: 403 },
      {
        url: createMediaUrlSigner({ secretKey: ctx.env.secretKey!, clock: ctx.clock }).sign(
          `/media/music/${newKey('wav')}`,
        ),
        status: 404,
      },
      { url: `/media/cover-art/${newKey('png')}`, status: 302 },
    ];
    for (const { url, status } of cases) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-accel-redirect'], url).toBeUndefined();
    }
    const etag = String((await ctx.app.inject({ method: 'HEAD', url: signed })).headers.etag);
    const res = await ctx.app.inject({
      method: 'GET',
      url: signed,
      headers: { 'if-none-match': etag },
    });
    expect(res.statusCode).toBe(304);
    expect(res.headers['x-accel-redirect']).toBeUndefined();
  });
});

describe('STORAGE=s3 (s3rver)', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let endpoint: string;
  let storage: Storage;
  const audio = bytes(60_000, 4);
  const wav = newKey('wav');
  const svg = newKey('svg');
  const svgBytes = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');

  beforeAll(async () => {
    s3 = await startS3rver();
    ({ endpoint } = s3);
    storage = createS3Storage({
      endpoint,
      region: 'us-east-1',
      bucket: 'canto',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    await putFile(storage, 'music', wav, audio);
    await putFile(storage, 'cover-art', svg, svgBytes);
  });
  afterAll(async () => {
    await storage?.close();
    await s3?.stop();
  });

  /** An app whose storage comes from env (STORAGE=s3 against s3rver), as in production. */
  async function s3App(extra: Record<string, string>) {
    const db = await createTestDatabase('pglite');
    const clock = new TestClock();
    const env = testEnv(
      {
        STORAGE: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: 'canto',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        ...extra,
      },
      db.dataDir,
    );
    const { app } = await buildApp({ env, database: db.database, clock, logger: false });
    await app.ready();
    const signer = createMediaUrlSigner({ secretKey: env.secretKey!, clock });
    return { app, db, clock, signer, env };
  }
  type S3App = Awaited<ReturnType<typeof s3App>>;
  const close = async (t: S3App | undefined) => {
    await t?.app.close();
    await t?.db.drop();
  };

  describe('default (MEDIA_OFFLOAD=redirect): a presigned store URL', () => {
    let t: S3App;
    beforeAll(async () => {
      t = await s3App({});
    });
    afterAll(() => close(t));

    it('redirects a verified request to a short-lived presigned URL of the object', async () => {
      expect(t.env.mediaOffload).toBe('redirect');
      const signed = t.signer.sign(`/media/music/${wav}`);
      const res = await t.app.inject({ method: 'GET', url: signed });
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location));
      expect(location.origin).toBe(endpoint);
      expect(location.pathname).toBe(`/canto/music/${wav}`);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('900');
      expect(location.searchParams.get('response-content-type')).toBe('audio/wav');
      const maxAge = Number(
        /^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))![1],
      );
      expect(maxAge).toBeGreaterThanOrEqual(0);
      expect(maxAge).toBeLessThanOrEqual(300);
      // Within the same 5-minute step the redirect is the same URL (cacheable).
      const again = await t.app.inject({ method: 'GET', url: signed });
      const step = 300_000 - (t.clock.now().getTime() % 300_000);
      if (step > 5_000) expect(again.headers.location).toBe(res.headers.location);

      // The browser follows it: the store serves the bytes, the type and Range.
      const whole = await fetch(location);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/wav');
      expect(Buffer.from(await whole.arrayBuffer()).equals(audio)).toBe(true);
      const part = await fetch(location, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);
    });

    it('allows the store origin in the page CSP for audio and images', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(`media-src 'self' blob: https: ${endpoint}`);
      expect(csp).toContain(`img-src 'self' data: blob: https: ${endpoint}`);
    });

    it('presigns HEAD for HEAD', async () => {
      const res = await t.app.inject({ method: 'HEAD', url: t.signer.sign(`/media/music/${wav}`) });
      expect(res.statusCode).toBe(302);
      const head = await fetch(String(res.headers.location), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(audio.length));
    });

    it('redirects public covers too, an SVG as a download', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/media/cover-art/${svg}` });
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location));
      expect(location.searchParams.get('response-content-disposition')).toBe('attachment');
      const body = await fetch(location);
      expect(Buffer.from(await body.arrayBuffer()).equals(svgBytes)).toBe(true);
    });

    it('never redirects a bare, tampered, swapped or expired URL', async () => {
      const signed = t.signer.sign(`/media/music/${wav}`);
      const urls = [`/media/music/${wav}`, tamper(signed), signed.replace(wav, newKey('wav'))];
      for (const url of urls) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(403);
        expect(res.headers.location).toBeUndefined();
      }
      t.clock.advance(13 * HOUR);
      const expired = await t.app.inject({ method: 'GET', url: signed });
      t.clock.advance(-13 * HOUR);
      expect(expired.statusCode).toBe(403);
      expect(expired.json().error.details.reason).toBe('expired');
    });
  });

  describe('CDN_URL: a CDN base with the same signature scheme', () => {
    let t: S3App;
    const cdn = 'https://cdn.example.org/canto';
    beforeAll(async () => {
      t = await s3App({ CDN_URL: `${cdn}/` });
    });
    afterAll(() => close(t));

    it('redirects to the CDN, signed over the CDN path with the same expiry', async () => {
      const signed = t.signer.sign(`/media/music/${wav}`);
      const e = query(signed).get('e')!;
      const res = await t.app.inject({ method: 'GET', url: signed });
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(`${cdn}/music/${wav}`);
      expect(location.searchParams.get('e')).toBe(e);
      expect(
        t.signer.verify(
          location.pathname,
          location.searchParams.get('e'),
          location.searchParams.get('s'),
        ),
      ).toEqual({ ok: true, expires: Number(e) });
      const left = Number(e) - Math.floor(t.clock.now().getTime() / 1000);
      expect(res.headers['cache-control']).toBe(`public, max-age=${left}`);
      expect((await t.app.inject({ method: 'GET', url: `/media/music/${wav}` })).statusCode).toBe(
        403,
      );
    });

    it('allows the CDN origin in the page CSP for audio and images', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/media-src [^;]*https:\/\/cdn\.example\.org/);
      expect(csp).toMatch(/img-src [^;]*https:\/\/cdn\.example\.org/);
    });
  });

  describe('MEDIA_OFFLOAD=none: Node streams from the store', () => {
    let t: S3App;
    beforeAll(async () => {
      t = await s3App({ MEDIA_OFFLOAD: 'none' });
    });
    afterAll(() => close(t));

    it('serves a signed URL with Range, refuses a bare one', async () => {
      const signed = t.signer.sign(`/media/music/${wav}`);
      const res = await t.app.inject({
        method: 'GET',
        url: signed,
        headers: { range: 'bytes=10-19' },
      });
      expect(res.statusCode).toBe(206);
      expect(res.rawPayload.equals(audio.subarray(10, 20))).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: `/media/music/${wav}` })).statusCode).toBe(
        403,
      );
    });

    it('leaves the page CSP to its defaults: the browser never leaves Canto', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(String(res.headers['content-security-policy'])).not.toContain(endpoint);
    });
  });
});

describe('MEDIA_OFFLOAD and CDN_URL settings', () => {
  const s3 = { STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
  it('defaults to none on local disk and redirect on S3', () => {
    expect(parseEnv({}).mediaOffload).toBe('none');
    expect(parseEnv(s3).mediaOffload).toBe('redirect');
    expect(parseEnv({ ...s3, MEDIA_OFFLOAD: 'none' }).mediaOffload).toBe('none');
    expect(parseEnv({ MEDIA_OFFLOAD: 'x-accel' }).mediaOffload).toBe('x-accel');
    expect(parseEnv({ ...s3, CDN_URL: 'https://cdn.example.org/x/' }).cdnUrl).toBe(
      'https://cdn.example.org/x',
    );
  });

  it.each([
    [{ MEDIA_OFFLOAD: 'sendfile' }, 'MEDIA_OFFLOAD'],
    [{ ...s3, MEDIA_OFFLOAD: 'x-accel' }, 'MEDIA_OFFLOAD: needs STORAGE=local'],
    [{ MEDIA_OFFLOAD: 'redirect' }, 'MEDIA_OFFLOAD: needs STORAGE=s3'],
    [{ CDN_URL: 'https://cdn.example.org' }, 'CDN_URL: needs MEDIA_OFFLOAD=redirect'],
    [{ ...s3, MEDIA_OFFLOAD: 'none', CDN_URL: 'https://cdn.example.org' }, 'CDN_URL'],
    [{ ...s3, CDN_URL: 'ftp://cdn.example.org' }, 'CDN_URL'],
  ])('refuses %o', (source, message) => {
    expect(() => parseEnv(source)).toThrow(EnvError);
    expect(() => parseEnv(source)).toThrow(message);
  });
});
