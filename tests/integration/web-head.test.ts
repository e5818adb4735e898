// HEAD on the web app's pages, as GET without the body (monitors and link checkers send it),
// and HSTS only with an https PUBLIC_URL (otherwise it would pin browsers to an https that does
// not exist).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';

const indexHtml = '<!doctype html><title>Canto</title><div id="root"></div>';

/** A built web app of one page and one hashed asset, as `npm run build` lays them out. */
function tinyWebDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-head-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), indexHtml);
  fs.writeFileSync(path.join(dir, 'assets', 'app-0123abcd.js'), 'export {};');
  return dir;
}

/** Everything the server writes back on a socket, to see that a HEAD answer has no body. */
async function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

const pageHeaders = ['content-type', 'content-length', 'cache-control', 'content-security-policy'];

describe.each(dbKinds)('HEAD on the web app on %s', (kind) => {
  let webDir: string;
  const ctx = useTestApp(kind, {}, { webDir: () => (webDir = tinyWebDir()) });
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

  it.each(['/', '/browse', '/search?q=night', '/following', '/index.html'])(
    'answers HEAD %s like GET, without the body',
    async (url) => {
      const get = await ctx.app.inject({ method: 'GET', url });
      expect(get.statusCode).toBe(200);
      expect(get.body).toBe(indexHtml);
      const head = await ctx.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      for (const name of pageHeaders) expect(head.headers[name], name).toBe(get.headers[name]);
      expect(head.headers['content-type']).toMatch(/^text\/html/);
    },
  );

  it('answers /robots.txt with text for crawlers, not the app', async () => {
    const res = await ctx.app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).not.toContain('<');
    expect(res.body.split('\n')).toEqual(
      expect.arrayContaining(['User-agent: *', 'Disallow: /api/', 'Allow: /api/podcasts/']),
    );
    const head = await ctx.app.inject({ method: 'HEAD', url: '/robots.txt' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(head.body).toBe('');
  });

  it('answers HEAD on a hashed asset with its headers', async () => {
    const head = await ctx.app.inject({ method: 'HEAD', url: '/assets/app-0123abcd.js' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps unknown API and media paths, and other methods on pages, as JSON 404s', async () => {
    for (const [method, url] of [
      ['HEAD', '/api/nope'],
      ['GET', '/api/nope'],
      ['HEAD', '/media/nope'],
      ['POST', '/browse'],
      ['DELETE', '/'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      if (method !== 'HEAD') expect(res.json().error.code).toBe('not_found');
    }
  });

  describe('over a real socket', () => {
    let port: number;
    beforeAll(async () => {
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      port = (ctx.app.server.address() as AddressInfo).port;
    });

    it('sends the status line and headers of HEAD / and not one byte of body', async () => {
      const raw = await rawExchange(
        port,
        'HEAD / HTTP/1.1\r\nHost: canto.test\r\nConnection: close\r\n\r\n',
      );
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/\r\ncontent-type: text\/html/i);
      expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(indexHtml)}`);
      expect(body).toBe('');
    });
  });
});

describe.each(dbKinds)('Strict-Transport-Security on %s', (kind) => {
  describe('with an https PUBLIC_URL', () => {
    const ctx = useTestApp(kind, { PUBLIC_URL: 'https://music.example.com' });
    it('is sent on API answers', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    });
  });

  describe('with an http PUBLIC_URL, or none', () => {
    const explicit = useTestApp(kind, { PUBLIC_URL: 'http://canto.lan:3000' });
    const none = useTestApp(kind);
    it('is not sent: it would pin browsers to an https that does not exist', async () => {
      for (const ctx of [explicit, none]) {
        const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['strict-transport-security']).toBeUndefined();
        // The rest of the security headers stay.
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  });
});
