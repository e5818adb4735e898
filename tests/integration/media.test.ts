import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { createMediaUrlSigner } from '../../src/server/security/media-url-signer.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import { newKey, type Bucket } from '../../src/server/storage/storage.ts';

const SECRET = 'TOP-SECRET-DO-NOT-SERVE';

const bytes = (n: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 13 + 5) & 0xff;
  return b;
};

describe('media route', () => {
  const ctx = useTestApp('pglite');
  const audio = bytes(10_000);
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>',
  );
  let wav: string;
  let cover: string;
  // Audio is served only under a signed URL, as the API hands them out (media-signed-urls
  // tests that); covers are public.
  const url = (bucket: Bucket, key: string) => {
    const path = `/media/${bucket}/${key}`;
    if (bucket !== 'music' && bucket !== 'podcasts') return path;
    return createMediaUrlSigner({ secretKey: ctx.env.secretKey!, clock: ctx.clock }).sign(path);
  };
  const expiryOf = (u: string) => Number(new URL(u, 'http://x').searchParams.get('e'));
  const get = (u: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: u, headers });

  beforeAll(async () => {
    const storage = createLocalStorage(path.join(ctx.env.dataDir, 'media'));
    wav = newKey('wav');
    cover = newKey('svg');
    await storage.put('music', wav, Readable.from([audio]), {
      contentType: 'audio/wav',
      maxBytes: 1e6,
    });
    await storage.put('cover-art', cover, Readable.from([svg]), {
      contentType: 'image/svg+xml',
      maxBytes: 1e6,
    });
    // Files a traversal would aim for, inside and just outside the media root.
    fs.writeFileSync(path.join(ctx.env.dataDir, 'secret'), SECRET);
    fs.writeFileSync(path.join(ctx.env.dataDir, 'media', 'secret'), SECRET);
    fs.writeFileSync(path.join(ctx.env.dataDir, 'media', 'music', 'secret.wav'), SECRET);
  });

  it('serves a whole file with type, validators and immutable caching', async () => {
    const res = await get(url('music', wav));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['content-length']).toBe(String(audio.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['etag']).toMatch(/^"[^"]+"$/);
    expect(new Date(String(res.headers['last-modified'])).getTime()).not.toBeNaN();
    // Immutable, but a signed URL may be cached only until it expires.
    const u = url('music', wav);
    const maxAge = expiryOf(u) - Math.floor(ctx.clock.now().getTime() / 1000);
    expect(maxAge).toBeGreaterThanOrEqual(6 * 3600);
    expect(res.headers['cache-control']).toBe(`public, max-age=${maxAge}, immutable`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(audio)).toBe(true);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, 9_999],
    ['bytes=-50', 9_950, 9_999],
    ['bytes=10-10', 10, 10],
    ['bytes=9000-20000', 9_000, 9_999],
    ['bytes=-20000', 0, 9_999],
    ['BYTES = 5-6', 5, 6],
  ])('answers %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await get(url('music', wav), { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${audio.length}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.rawPayload.equals(audio.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=10000-', 'bytes=10000-10005', 'bytes=99999999-', 'bytes=-0'])(
    'answers %s with 416 and the size',
    async (range) => {
      const res = await get(url('music', wav), { range });
      expect(res.statusCode).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${audio.length}`);
      expect(res.json().error.code).toBe('range_not_satisfiable');
      expect(res.headers['cache-control']).toBeUndefined();
    },
  );

  it.each([
    'bytes=abc',
    'bytes=5-2',
    'items=0-1',
    'bytes=0-1-2',
    'bytes=--1',
    'bytes=',
    'bytes',
    '0-1',
  ])('ignores the malformed range %s and sends the whole file', async (range) => {
    const res = await get(url('music', wav), { range });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(audio.length);
  });

  it('answers several ranges with the whole file', async () => {
    const res = await get(url('music', wav), { range: 'bytes=0-0,2-2' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(audio)).toBe(true);
  });

  it('shrugs off hundreds of range parts quickly', async () => {
    const range = `bytes=${Array.from({ length: 500 }, (_, i) => `${i}-${i}`).join(',')}`;
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      const res = await get(url('music', wav), { range });
      expect([200, 416]).toContain(res.statusCode);
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    // The app still answers normally afterwards.
    expect((await get(url('music', wav), { range: 'bytes=0-0' })).statusCode).toBe(206);
  });

  it('answers HEAD with the headers of the whole file and no body, ignoring Range', async () => {
    const res = await ctx.app.inject({
      method: 'HEAD',
      url: url('music', wav),
      headers: { range: 'bytes=0-9' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(audio.length));
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers a matching If-None-Match with 304', async () => {
    const { headers } = await get(url('music', wav));
    const etag = String(headers.etag);
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await get(url('music', wav), { 'if-none-match': inm });
      expect(res.statusCode, inm).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
    }
    expect((await get(url('music', wav), { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers If-Modified-Since at or after Last-Modified with 304', async () => {
    const { headers } = await get(url('music', wav));
    const lm = String(headers['last-modified']);
    expect((await get(url('music', wav), { 'if-modified-since': lm })).statusCode).toBe(304);
    const earlier = new Date(Date.parse(lm) - 60_000).toUTCString();
    expect((await get(url('music', wav), { 'if-modified-since': earlier })).statusCode).toBe(200);
  });

  it('honours If-Range only while the validator matches', async () => {
    const { headers } = await get(url('music', wav));
    const etag = String(headers.etag);
    const lm = String(headers['last-modified']);
    expect(
      (await get(url('music', wav), { range: 'bytes=0-9', 'if-range': etag })).statusCode,
    ).toBe(206);
    expect((await get(url('music', wav), { range: 'bytes=0-9', 'if-range': lm })).statusCode).toBe(
      206,
    );
    const stale = await get(url('music', wav), { range: 'bytes=0-9', 'if-range': '"changed"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(audio.length);
    expect(
      (await get(url('music', wav), { range: 'bytes=0-9', 'if-range': `W/${etag}` })).statusCode,
    ).toBe(200);
  });

  it('serves SVG so that it cannot run script', async () => {
    const res = await get(url('cover-art', cover));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(svg)).toBe(true);
  });

  it.each([
    '/media/music/..%2F..%2Fsecret',
    '/media/music/..%2Fsecret',
    '/media/music/%2e%2e',
    '/media/music/%2e%2e%2fsecret',
    '/media/music/..%5c..%5csecret',
    '/media/music/secret.wav',
    '/media/music/music%2Fsecret.wav',
    '/media/music/a/b',
    `/media/music/x/..%2F${'0'.repeat(36)}.wav`,
    '/media/..%2F..%2F/secret',
    '/media/music/00000000-0000-0000-0000-000000000000.wav%00.txt',
    '/media/music/00000000-0000-0000-0000-000000000000.WAV',
  ])('refuses %s without reading outside the bucket', async (u) => {
    const res = await get(u);
    expect([400, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain(SECRET);
    expect(res.json().error.code).toMatch(/not_found|validation_failed/);
  });

  it('never serves storage for a path whose dot segments leave /media', async () => {
    // The router resolves `/media/../secret` to `/secret`, which the web app (not this route)
    // answers; what matters here is that no stored or outside file comes back.
    for (const u of [
      '/media/%2e%2e/secret',
      '/media/%2e%2e/%2e%2e/secret',
      '/media/%2e%2e/media/secret',
    ]) {
      const res = await get(u);
      expect(res.body, u).not.toContain(SECRET);
      if (res.statusCode === 200) expect(res.headers['content-type'], u).toMatch(/^text\/html/);
    }
  });

  it('answers an unknown bucket or a missing file with a JSON 404', async () => {
    for (const u of [
      `/media/private/${wav}`,
      url('music', newKey('mp3')),
      url('podcasts', wav),
      url('avatars', newKey('png')),
    ]) {
      const res = await get(u);
      expect(res.statusCode, u).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('sends a missing cover to the placeholder image', async () => {
    const res = await get(url('cover-art', newKey('jpg')));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/placeholder.svg');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('is public', () => {
    const routes = ctx.app.routePolicies.filter((r) => r.url === '/media/:bucket/:key');
    expect(routes.map((r) => `${r.method} ${r.access}`).sort()).toEqual([
      'GET public',
      'HEAD public',
    ]);
  });
});
