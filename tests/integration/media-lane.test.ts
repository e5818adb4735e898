import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMediaUrlSigner } from '../../src/server/security/media-url-signer.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import { newKey, type Bucket } from '../../src/server/storage/storage.ts';
import { TestClock, useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';

/*
 * The media lane (src/server/modules/media/media.lane.ts) answers plain seeks before Fastify.
 * Each request here goes over real HTTP (through the lane when it takes it) and through
 * app.inject (which never passes the lane: the media route itself); the two answers must be
 * the same status, headers and bytes. A counter says which requests the lane answered, so
 * these tests fail if the lane is gone or takes what it must leave to the route.
 */

const SIZE = 600_000;
const bytes = (n: number, seed: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return b;
};
// Hop-by-hop and per-exchange headers that only real HTTP has.
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

type Answer = { status: number; headers: Record<string, string>; body: Buffer };

const normalize = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => !TRANSPORT.has(name) && value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  );

function overHttp(
  port: number,
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: url, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: normalize(res.headers),
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(dbKinds)('media lane on %s', (kind) => {
  let answered = 0;
  const ctx = useTestApp(kind, {}, { hooks: { mediaLaneAnswered: () => answered++ } });
  const audio = bytes(SIZE, 1);
  const episode = bytes(50_000, 2);
  const cover = bytes(5_000, 3);
  const keys = { music: newKey('wav'), podcasts: newKey('wav'), cover: newKey('webp') };
  let port: number;

  const signed = (bucket: Bucket, key: string, clock = ctx.clock) =>
    createMediaUrlSigner({ secretKey: ctx.env.secretKey!, clock }).sign(`/media/${bucket}/${key}`);

  beforeAll(async () => {
    const storage = createLocalStorage(path.join(ctx.env.dataDir, 'media'));
    const put = (bucket: Bucket, key: string, data: Buffer, contentType: string) =>
      storage.put(bucket, key, Readable.from([data]), { contentType, maxBytes: 1e7 });
    await put('music', keys.music, audio, 'audio/wav');
    await put('podcasts', keys.podcasts, episode, 'audio/wav');
    await put('cover-art', keys.cover, cover, 'image/webp');
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });

  /** The answer over HTTP and the route's (inject), and whether the lane gave the first. */
  async function both(url: string, headers: Record<string, string> = {}, method = 'GET') {
    const before = answered;
    const lane = await overHttp(port, url, headers, method);
    const byLane = answered > before;
    const res = await ctx.app.inject({ method: method as 'GET', url, headers });
    const route: Answer = {
      status: res.statusCode,
      headers: normalize(res.headers),
      body: res.rawPayload,
    };
    expect(lane.status).toBe(route.status);
    expect(lane.headers).toEqual(route.headers);
    expect(lane.body.equals(route.body)).toBe(true);
    return { answer: lane, byLane };
  }

  it.each([
    ['the first bytes', 'bytes=0-65535', 0, 65_535],
    ['one byte at 0', 'bytes=0-0', 0, 0],
    ['the last byte', `bytes=${SIZE - 1}-${SIZE - 1}`, SIZE - 1, SIZE - 1],
    ['an open range near the end', `bytes=${SIZE - 1000}-`, SIZE - 1000, SIZE - 1],
    ['a range ending past the file', `bytes=${SIZE - 10}-${SIZE + 5000}`, SIZE - 10, SIZE - 1],
    ['an unaligned range', 'bytes=12345-77880', 12_345, 77_880],
    ['just under 256 KB', 'bytes=1-262144', 1, 262_144],
  ])('answers %s itself, as the route would', async (_, range, start, end) => {
    // Twice and then again: the second read loads the file into memory, the third uses it.
    for (let i = 0; i < 3; i++) {
      const { answer, byLane } = await both(signed('music', keys.music), { range });
      expect(byLane).toBe(true);
      expect(answer.status).toBe(206);
      expect(answer.headers['content-range']).toBe(`bytes ${start}-${end}/${SIZE}`);
      expect(answer.body.equals(audio.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers a seek in a podcast episode itself', async () => {
    const { answer, byLane } = await both(signed('podcasts', keys.podcasts), {
      range: 'bytes=100-199',
    });
    expect(byLane).toBe(true);
    expect(answer.body.equals(episode.subarray(100, 200))).toBe(true);
  });

  const music = () => signed('music', keys.music);
  it.each<[string, () => string, Record<string, string>, number, string?]>([
    ['a range of 256 KB or more', music, { range: 'bytes=0-262144' }, 206],
    ['no Range', music, {}, 200],
    ['HEAD', music, { range: 'bytes=0-99' }, 200, 'HEAD'],
    ['If-None-Match', music, { range: 'bytes=0-99', 'if-none-match': '"x"' }, 206],
    ['If-Modified-Since', music, { range: 'bytes=0-99', 'if-modified-since': 'x' }, 206],
    ['If-Range', music, { range: 'bytes=0-99', 'if-range': '"x"' }, 200],
    ['a suffix range', music, { range: 'bytes=-100' }, 206],
    ['two ranges', music, { range: 'bytes=0-1,5-6' }, 200],
    ['a range past the end', music, { range: `bytes=${SIZE}-` }, 416],
    ['a range in capitals', music, { range: 'BYTES=0-99' }, 206],
    [
      'a tampered signature',
      // Another first character, whatever it was (a signature may start with '_' itself).
      () => music().replace(/s=(.)/, (_, c: string) => `s=${c === '_' ? '-' : '_'}`),
      { range: 'bytes=0-99' },
      403,
    ],
    [
      'an expired URL',
      () => signed('music', keys.music, new TestClock(Date.now() - 24 * 3600_000)),
      { range: 'bytes=0-99' },
      403,
    ],
    ['a bare path', () => `/media/music/${keys.music}`, { range: 'bytes=0-99' }, 403],
    [
      'the signature twice',
      () => `${music()}&s=${new URL(music(), 'http://x').searchParams.get('s')}`,
      { range: 'bytes=0-99' },
      403,
    ],
    ['an unknown key', () => signed('music', newKey('wav')), { range: 'bytes=0-99' }, 404],
    ['an invalid key', () => signed('music', 'x.wav'), { range: 'bytes=0-99' }, 404],
    ['a cover', () => `/media/cover-art/${keys.cover}`, { range: 'bytes=0-99' }, 206],
    ['an encoded path', () => music().replace('.wav', '%2Ewav'), { range: 'bytes=0-99' }, 206],
  ])('leaves %s to the route', async (_, url, headers, status, method = 'GET') => {
    const { answer, byLane } = await both(url(), headers, method);
    expect(byLane).toBe(false);
    expect(answer.status).toBe(status);
  });

  it('is not on the path of other requests', async () => {
    const before = answered;
    const health = await overHttp(port, '/api/health', { range: 'bytes=0-1' });
    expect(health.status).toBe(200);
    expect(answered).toBe(before);
  });
});
