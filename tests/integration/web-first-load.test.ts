// The page the server sends carries the first load's hints for the requested path: the screen's
// chunks, the session for everyone, and the subscription and the screen's first query for a
// signed-in visitor who owes no second factor (docs/decisions/0026-first-load.md).
import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { makeUser } from './songs-helpers.ts';

const indexHtml =
  '<!doctype html><html><head><title>Canto</title></head><body><div id="root"></div></body></html>';
const firstScreens = {
  '/': ['/assets/home-page-aaaa.js', '/assets/screens-cccc.js'],
  '/auth': ['/assets/auth-page-bbbb.js', '/assets/screens-cccc.js'],
};

function webDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-first-load-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), indexHtml);
  fs.writeFileSync(path.join(dir, 'first-screens.json'), JSON.stringify(firstScreens));
  return dir;
}

const modulePreloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const fetchPreloads = (html: string) =>
  [
    ...html.matchAll(
      /<link rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)">/g,
    ),
  ].map((m) => m[1]);

describe.each(dbKinds)('first-load hints in the page on %s', (kind) => {
  let dir: string;
  const ctx = useTestApp(kind, {}, { webDir: () => (dir = webDir()) });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const page = async (url: string, cookie?: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url,
      headers: cookie ? { cookie } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/cookie/i);
    // The hints go in the head; the rest of the document is the build's.
    expect(res.body.replace(/<link [^>]+>/g, '')).toBe(indexHtml);
    return res.body;
  };

  it("preloads the requested screen's chunks, not another screen's", async () => {
    expect(modulePreloads(await page('/'))).toEqual(firstScreens['/']);
    expect(modulePreloads(await page('/auth'))).toEqual(firstScreens['/auth']);
    expect(modulePreloads(await page('/auth/?next=1'))).toEqual(firstScreens['/auth']);
    expect(modulePreloads(await page('/following'))).toEqual([]);
  });

  it('asks a visitor who is not signed in for the session only', async () => {
    expect(fetchPreloads(await page('/'))).toEqual(['/api/auth/session']);
    expect(fetchPreloads(await page('/auth', 'canto_refresh=x'))).toEqual(['/api/auth/session']);
    // A cookie that is not a live session's token counts for nothing.
    expect(fetchPreloads(await page('/', 'canto_access=not-a-token'))).toEqual([
      '/api/auth/session',
    ]);
  });

  it("asks a signed-in visitor for the subscription and the screen's first query too", async () => {
    const { token } = await makeUser(ctx, 'listener', 'First Load');
    expect(fetchPreloads(await page('/', `canto_access=${token}`))).toEqual([
      '/api/auth/session',
      '/api/subscription',
      '/api/songs/home',
    ]);
    expect(fetchPreloads(await page('/browse', `canto_access=${token}`))).toEqual([
      '/api/auth/session',
      '/api/subscription',
    ]);
  });

  it('asks a session that owes its second factor for the session only', async () => {
    const { token, userId } = await makeUser(ctx, 'listener', 'Owes Factor');
    await ctx.db.database.db.execute(
      sql`insert into mfa_factors (user_id, factor_type, status) values (${userId}, 'totp', 'verified')`,
    );
    expect(fetchPreloads(await page('/', `canto_access=${token}`))).toEqual(['/api/auth/session']);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const get = await ctx.app.inject({ method: 'GET', url: '/' });
    const head = await ctx.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });
});
