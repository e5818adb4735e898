import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App, type BuiltApp } from '../../src/server/app.ts';
import { createMediaUrlSigner } from '../../src/server/security/media-url-signer.ts';
import { createLocalStorage } from '../../src/server/storage/local-storage.ts';
import { MEDIA_TYPES, newKey, ownedKey, type Storage } from '../../src/server/storage/storage.ts';
import {
  freePort,
  nginxAvailable,
  renderSiteConfig,
  startNginx,
  writeMediaKeyInclude,
  type RunningNginx,
} from '../helpers/nginx.ts';
import { TestClock, testEnv, type TestContext } from '../helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.ts';
import type { SongDto } from '../../src/contracts/songs.contract.ts';
import { makeUser, makeWav, uploadSong } from './songs-helpers.ts';

/*
 * Debian's nginx in front of Canto on loopback, configured by the documented site config
 * (docs/deploy/nginx/canto.conf, only its variables filled in), Canto with
 * MEDIA_OFFLOAD=x-accel. Without nginx the file is skipped with a warning, unless
 * CANTO_REQUIRE_NGINX=1 (CI) makes that a failure.
 */
const available = nginxAvailable();
if (!available) {
  if (process.env.CANTO_REQUIRE_NGINX === '1')
    throw new Error('nginx is not installed (CANTO_REQUIRE_NGINX=1)');
  console.warn('nginx.test.ts skipped: nginx is not installed (apt-get install nginx)');
}

const bytes = (n: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7 + 3) & 0xff;
  return b;
};

type Res = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

describe.skipIf(!available)('Canto behind nginx (docs/deploy/nginx/canto.conf)', () => {
  let root: string;
  let db: TestDatabase;
  let app: App;
  let built: BuiltApp;
  let nginx: RunningNginx;
  let base: string;
  const clock = new TestClock();
  const audio = bytes(300_000);
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  const wav = newKey('wav');
  const cover = newKey('svg');
  const indexHtml = '<!doctype html><title>Canto</title><div id="root"></div>';
  let signed: string;
  let secretKey: string;
  let storage: Storage;
  // Media requests that reached Canto so far (nginx sends valid ones without asking).
  let cantoMedia = 0;

  beforeAll(async () => {
    // nginx's workers run as nobody when the tests run as root: everything they serve must
    // be world-readable, as a deployment makes DATA_DIR/media readable for www-data.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-nginx-'));
    fs.chmodSync(root, 0o755);
    const mediaDir = path.join(root, 'media');
    const webDir = path.join(root, 'web');
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'index.html'), indexHtml);
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js'), 'console.log("canto")');
    fs.writeFileSync(path.join(webDir, 'placeholder.svg'), '<svg/>');

    storage = createLocalStorage(mediaDir);
    await storage.put('music', wav, Readable.from([audio]), {
      contentType: 'audio/wav',
      maxBytes: 1e6,
    });
    await storage.put('cover-art', cover, Readable.from([svg]), {
      contentType: 'image/svg+xml',
      maxBytes: 1e6,
    });

    db = await createTestDatabase('pglite');
    const env = testEnv({ MEDIA_OFFLOAD: 'x-accel', TRUST_PROXY: '127.0.0.1' }, db.dataDir);
    built = await buildApp({ env, database: db.database, clock, logger: false, storage, webDir });
    ({ app } = built);
    app.addHook('onRequest', async (request) => {
      if (request.url.startsWith('/media/')) cantoMedia++;
    });
    // A WebSocket under /api/ beside the live notifications' (the app registers the plugin),
    // to prove the upgrade passes nginx.
    app.get('/api/ws-echo', { websocket: true, config: { access: 'public' } }, (socket) => {
      socket.on('message', (data: Buffer) => socket.send(String(data)));
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const cantoPort = (app.server.address() as { port: number }).port;

    const port = await freePort();
    nginx = await startNginx({
      dir: path.join(root, 'nginx'),
      ports: [port],
      http: renderSiteConfig({
        CANTO_LISTEN: `127.0.0.1:${port}`,
        CANTO_SERVER_NAME: 'localhost',
        CANTO_UPSTREAM: `127.0.0.1:${cantoPort}`,
        CANTO_WEB_DIR: webDir,
        CANTO_MEDIA_DIR: mediaDir,
        CANTO_MEDIA_KEY_FILE: writeMediaKeyInclude(
          path.join(root, 'nginx-key', 'media-key.conf'),
          env.secretKey!,
        ),
      }),
    });
    base = `http://127.0.0.1:${port}`;
    secretKey = env.secretKey!;
    signed = createMediaUrlSigner({ secretKey, clock }).sign(`/media/music/${wav}`);
  });

  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
    await db?.drop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Res>((resolve, reject) => {
      // The path as given, not normalized by URL parsing (dot segments reach nginx).
      const { hostname, port } = new URL(base);
      const req = http.request({ hostname, port, path: url, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  it('sends a signed audio URL from nginx: the file, with Canto’s type, cache and ETag', async () => {
    const res = await get(signed);
    expect(res.status, nginx.errorLog()).toBe(200);
    expect(res.body.equals(audio)).toBe(true);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['content-length']).toBe(String(audio.length));
    expect(res.headers['x-accel-redirect']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['accept-ranges']).toBe('bytes');
    // Kept, but checked again before each reuse: no cache sends it past the URL's expiry.
    expect(res.headers['cache-control']).toBe('public, no-cache');
    // nginx's validators are the ones Canto gives for the same file, so a revalidation is a 304.
    const direct = await app.inject({ method: 'HEAD', url: signed });
    expect(res.headers.etag).toBe(direct.headers.etag);
    expect(res.headers['last-modified']).toBe(direct.headers['last-modified']);
    const again = await get(signed, { 'if-none-match': String(res.headers.etag) });
    expect(again.status).toBe(304);

    const head = await get(signed, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(audio.length));
    expect(head.body.length).toBe(0);
  });

  it('checks the signature inside nginx: Range requests under a valid URL never reach Canto', async () => {
    const key = newKey('wav');
    await storage.put('music', key, Readable.from([audio]), {
      contentType: 'audio/wav',
      maxBytes: 1e6,
    });
    const url = createMediaUrlSigner({ secretKey, clock }).sign(`/media/music/${key}`);
    const before = cantoMedia;
    for (let i = 0; i < 20; i++) {
      const res = await get(url, { range: `bytes=${i * 1000}-${i * 1000 + 999}` });
      expect(res.status).toBe(206);
      expect(res.body.equals(audio.subarray(i * 1000, i * 1000 + 1000))).toBe(true);
    }
    expect((await get(url)).status).toBe(200);
    expect(cantoMedia - before).toBe(0);
  });

  it('stops sending a URL’s file within a second of its expiry', async () => {
    // nginx checks expiry in real time: bring Canto's clock to it, then sign a URL that
    // expires in 2 to 4 s (a 2-second window instead of 6 hours).
    clock.advance(Date.now() - clock.now().getTime());
    const short = createMediaUrlSigner({ secretKey, clock, windowSeconds: 2 }).sign(
      `/media/music/${wav}`,
    );
    const e = Number(new URL(short, base).searchParams.get('e'));
    expect((await get(short, { range: 'bytes=0-9' })).status).toBe(206);
    // nginx compares whole seconds: it may still send during the second e itself.
    await new Promise((r) => setTimeout(r, e * 1000 - Date.now() + 1_200));
    clock.advance(Date.now() - clock.now().getTime());
    const before = cantoMedia;
    const res = await get(short, { range: 'bytes=0-9' });
    expect(res.status).toBe(403);
    expect(cantoMedia - before).toBe(1);
    expect(JSON.parse(res.body.toString()).error.details.reason).toBe('expired');
  });

  it('answers Range, If-None-Match and an unsatisfiable range like Canto does', async () => {
    const part = await get(signed, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${audio.length}`);
    expect(part.body.equals(audio.subarray(1000, 2000))).toBe(true);

    const suffix = await get(signed, { range: 'bytes=-10' });
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(audio.subarray(audio.length - 10))).toBe(true);

    const { headers } = await get(signed);
    expect((await get(signed, { 'if-none-match': String(headers.etag) })).status).toBe(304);
    const ifRange = await get(signed, { range: 'bytes=0-9', 'if-range': String(headers.etag) });
    expect(ifRange.status).toBe(206);
    const stale = await get(signed, { range: 'bytes=0-9', 'if-range': '"changed"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(audio.length);

    const past = await get(signed, { range: `bytes=${audio.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${audio.length}`);
  });

  it('refuses a bare, tampered, swapped or expired audio URL with 403 and no bytes', async () => {
    const other = newKey('wav');
    const swapped = signed.replace(wav, other);
    const u = new URL(signed, base);
    const flip = (token: string) => `${token[0] === 'A' ? 'B' : 'A'}${token.slice(1)}`;
    const [sig, token] = [u.searchParams.get('s')!, u.searchParams.get('n')!];
    const tampered = signed
      .replace(`s=${sig}`, `s=${flip(sig)}`)
      .replace(`n=${token}`, `n=${flip(token)}`);
    // nginx goes by `n` alone: a URL whose `n` it refuses goes to Canto, which goes by `s`.
    const noToken = signed.replace(`&n=${token}`, '');
    for (const url of [`/media/music/${wav}`, tampered, swapped]) {
      const before = cantoMedia;
      const res = await get(url);
      expect(res.status, url).toBe(403);
      // nginx refused it and handed it to Canto once, for the answer with its reason.
      expect(cantoMedia - before, url).toBe(1);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()).error.code).toBe('permission_denied');
      expect(res.body.includes(audio.subarray(0, 64))).toBe(false);
    }
    // …so a URL without a token of its own still plays, through Canto (one request).
    const before = cantoMedia;
    const relayed = await get(noToken, { range: 'bytes=0-9' });
    expect(relayed.status).toBe(206);
    expect(relayed.body.equals(audio.subarray(0, 10))).toBe(true);
    expect(cantoMedia - before).toBe(1);
    // Signed URLs live at most two 6-hour windows: one made 13 hours ago has expired.
    const past = new TestClock(clock.now().getTime() - 13 * 3600 * 1000);
    const expired = createMediaUrlSigner({ secretKey, clock: past }).sign(`/media/music/${wav}`);
    const res = await get(expired);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body.toString()).error.details.reason).toBe('expired');
  });

  it('never serves the internal locations to a client', async () => {
    for (const url of [
      `/_canto_media/music/${wav}`,
      `/_canto_media/`,
      `/_canto_media/podcasts/../music/${wav}`,
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.includes(audio.subarray(0, 64))).toBe(false);
    }
  });

  it('sends only files Canto names: odd paths get 4xx from Canto, never another file', async () => {
    const sig = new URL(signed, base).search;
    const cases: Array<[string, number[]]> = [
      // A location no key could have: Canto's 404 (its check refuses, then it answers).
      [`/media/music/${wav}/more${sig}`, [404]],
      [`/media/music/not-a-key.wav${sig}`, [404]],
      [`/media/nope/${wav}${sig}`, [404]],
      // Dot segments: nginx and Canto both go by the path as sent, which is no public
      // cover's and carries no signature.
      [`/media/cover-art/../music/${wav}`, [403, 404]],
      [`/media/cover-art/%2e%2e/music/${wav}`, [403, 404]],
    ];
    for (const [url, statuses] of cases) {
      const res = await get(url);
      expect(statuses, url).toContain(res.status);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.body.includes(audio.subarray(0, 64)), url).toBe(false);
    }
    // Walking out of the media root never reaches a file outside it.
    for (const url of [
      '/media/cover-art/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/media/../../etc/passwd',
      '/media/cover-art/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBeLessThan(500);
      expect(res.body.toString(), url).not.toMatch(/root:/);
    }
  });

  it('lets Canto answer a signed URL whose file is missing', async () => {
    const gone = createMediaUrlSigner({ secretKey, clock }).sign(`/media/music/${newKey('wav')}`);
    const res = await get(gone);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString()).error.code).toBe('not_found');
  });

  it('sends every media type as Canto does', async () => {
    for (const [ext, type] of Object.entries(MEDIA_TYPES)) {
      const key = newKey(ext);
      await storage.put('cover-art', key, Readable.from([Buffer.from('x')]), {
        contentType: type,
        maxBytes: 10,
      });
      const res = await get(`/media/cover-art/${key}`);
      expect(res.status, ext).toBe(200);
      expect(res.headers['content-type'], ext).toBe(type);
    }
    // An owned key (an avatar's `{userId}/{timestamp}.webp`) spans two path segments.
    const avatar = ownedKey(crypto.randomUUID(), Date.now(), 'webp');
    await storage.put('cover-art', avatar, Readable.from([Buffer.from('avatar')]), {
      contentType: 'image/webp',
      maxBytes: 10,
    });
    const res = await get(`/media/cover-art/${avatar}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.body.toString()).toBe('avatar');
    const other = await get(`/media/cover-art/${avatar.replace('/', '/../')}`);
    expect(other.status).toBeGreaterThanOrEqual(400);
  });

  it('serves a public SVG cover with its script-blocking CSP, and the placeholder for a missing one', async () => {
    const res = await get(`/media/cover-art/${cover}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(svg)).toBe(true);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Not on other media: the empty upstream value adds nothing.
    expect((await get(signed)).headers['content-security-policy']).toBeUndefined();

    const missing = await get(`/media/cover-art/${newKey('jpg')}`);
    expect(missing.status).toBe(302);
    expect(missing.headers.location).toBe('/placeholder.svg');
  });

  it('proxies the API', async () => {
    const res = await get('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const missing = await get('/api/no-such-route');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString()).error.code).toBe('not_found');
  });

  it('passes a WebSocket upgrade under /api/ through', async () => {
    const key = crypto.randomBytes(16).toString('base64');
    const { res, socket } = await new Promise<{
      res: http.IncomingMessage;
      socket: import('node:net').Socket;
    }>((resolve, reject) => {
      const req = http.request(`${base}/api/ws-echo`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-key': key,
          'sec-websocket-version': '13',
        },
      });
      req.on('upgrade', (r, s) => resolve({ res: r, socket: s }));
      req.on('response', (r) => reject(new Error(`no upgrade: ${r.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(101);
    expect(res.headers['sec-websocket-accept']).toBe(
      crypto
        .createHash('sha1')
        .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64'),
    );
    // One masked text frame out, its echo (unmasked, same payload) back.
    const payload = Buffer.from('hello through nginx');
    const mask = crypto.randomBytes(4);
    const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
    socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
    const frame = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
    expect(frame[0]).toBe(0x81);
    expect(frame.subarray(2, 2 + frame[1]!).toString()).toBe('hello through nginx');
    socket.destroy();
  });

  it('serves the web build: index.html for app routes, hashed assets immutable', async () => {
    for (const url of ['/', '/search', '/index.html']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.body.toString()).toBe(indexHtml);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      // The document comes from Canto, with its security headers.
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
    }
    const asset = await get('/assets/app-1a2b3c.js');
    expect(asset.status).toBe(200);
    expect(asset.body.toString()).toBe('console.log("canto")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/missing.js')).status).toBe(404);
    const placeholder = await get('/placeholder.svg');
    expect(placeholder.status).toBe(200);
    expect(placeholder.headers['content-type']).toBe('image/svg+xml');
  });

  // Last in this file on purpose: its reconciler pass deletes the fixtures above, which no
  // row references.
  it('serves renditions and the waveform like originals: signed, Range, ETag, offloaded', async () => {
    // The helpers read only the app and the database; the upload goes through Canto.
    const ctx = { ...built, db } as unknown as TestContext;
    const artist = await makeUser(ctx, 'artist', 'Nginx Artist');
    const uploaded = await uploadSong(ctx, artist, { title: 'Offloaded', audio: makeWav(1) });
    // The app's own worker, as the host starts it; app.close stops it.
    await built.jobs.start();
    const fetchSong = async () => {
      const res = await get(`/api/songs/${uploaded.id}`, artist.headers);
      expect(res.status, res.body.toString()).toBe(200);
      return JSON.parse(res.body.toString()) as SongDto;
    };
    let song = await fetchSong();
    for (
      const until = Date.now() + 10_000;
      song.status === 'processing';
      song = await fetchSong()
    ) {
      if (Date.now() > until) throw new Error('song still processing after 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(song.status).toBe('ready');
    expect(song.renditions).toHaveLength(3);

    // A reconciler pass that sees every file as old enough to go keeps the song's five.
    const files = () => fs.readdirSync(path.join(root, 'media', 'music')).sort();
    const named = [song.file_url!, song.waveform_url!, ...song.renditions.map((r) => r.url)].map(
      (url) => path.basename(url.split('?')[0]!),
    );
    const ageMs = (testEnv({}).mediaSweep.ageSeconds + 60) * 1000;
    clock.advance(ageMs);
    const report = await built.reconciler.runOnce();
    clock.advance(-ageMs);
    expect(report.refused).toEqual([]);
    expect(report.repaired).toBe(0);
    for (const name of named) expect(files()).toContain(name);
    // The control: the pass did delete an older file of the same bucket that no row names.
    expect(report.orphans).toBeGreaterThan(0);
    expect(files()).not.toContain(wav);
    expect(await fetchSong()).toEqual(song);

    for (const r of song.renditions) {
      const full = await get(r.url);
      expect(full.status, nginx.errorLog()).toBe(200);
      expect(full.headers['x-accel-redirect']).toBeUndefined();
      expect(full.headers['content-type']).toBe(r.mime.split(';')[0]);
      expect(full.headers['content-type']).toMatch(/^audio\/(webm|mp4)$/);
      expect(full.headers['content-length']).toBe(String(r.bytes));
      expect(full.body.length).toBe(r.bytes);
      expect(full.headers['x-content-type-options']).toBe('nosniff');

      const part = await get(r.url, { range: 'bytes=100-299' });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-299/${r.bytes}`);
      expect(part.body.equals(full.body.subarray(100, 300))).toBe(true);

      expect(full.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await get(r.url, { 'if-none-match': String(full.headers.etag) });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);

      const bare = await get(r.url.split('?')[0]!);
      expect(bare.status).toBe(403);
      expect(JSON.parse(bare.body.toString()).error.code).toBe('permission_denied');
      expect(bare.body.includes(full.body.subarray(0, 64))).toBe(false);
    }

    const wave = await get(song.waveform_url!);
    expect(wave.status).toBe(200);
    expect(wave.headers['content-type']).toBe('application/json');
    const doc = JSON.parse(wave.body.toString()) as { version: number; peaks: number[] };
    expect(doc.version).toBe(1);
    expect(doc.peaks.length).toBeGreaterThan(0);
    const waveAgain = await get(song.waveform_url!, { 'if-none-match': String(wave.headers.etag) });
    expect(waveAgain.status).toBe(304);
    const bareWave = await get(song.waveform_url!.split('?')[0]!);
    expect(bareWave.status).toBe(403);
    expect(bareWave.body.includes(wave.body.subarray(0, 16))).toBe(false);
  });
});
