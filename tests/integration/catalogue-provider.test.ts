// The external catalogue as an outbound client: it reaches only
// public addresses unless CATALOGUE_ALLOW_PRIVATE says otherwise, follows no redirect, drops
// media URLs into private networks, and stops waiting on a catalogue that keeps failing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createItunesProvider } from '../../src/server/providers/catalogue/itunes.provider.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { TestClock, useTestApp } from '../helpers/test-app.ts';
import { catalogueTrack, makeUser, type TestUser } from './songs-helpers.ts';

type Fake = {
  url: string;
  port: number;
  /** Every request that reached the server, by path and query. */
  requests: string[];
  mode: 'ok' | 'hang' | 'redirect';
  tracks: unknown[];
  redirectTo: string;
  close(): Promise<void>;
};

/** A stand-in for the iTunes Search API that also hangs or redirects on demand. */
async function startFake(): Promise<Fake> {
  const fake = { requests: [], mode: 'ok', tracks: [], redirectTo: '' } as unknown as Fake;
  const server = http.createServer((req, res) => {
    fake.requests.push(req.url ?? '');
    if (fake.mode === 'hang') return;
    if (fake.mode === 'redirect') {
      res.writeHead(302, { location: fake.redirectTo }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(JSON.stringify({ resultCount: fake.tracks.length, results: fake.tracks }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

type Logged = { level: 'error' | 'warn' | 'info' | 'debug'; msg: string };
function memoryLog() {
  const lines: Logged[] = [];
  const at = (level: Logged['level']) => (_obj: object, msg: string) =>
    void lines.push({ level, msg });
  return {
    lines,
    log: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') },
  };
}

describe('the catalogue provider', () => {
  let fake: Fake;
  let other: Fake;
  beforeAll(async () => {
    [fake, other] = await Promise.all([startFake(), startFake()]);
  });
  afterAll(async () => {
    await fake?.close();
    await other?.close();
  });
  afterEach(() => {
    for (const f of [fake, other]) {
      f.requests.length = 0;
      f.mode = 'ok';
      f.tracks = [catalogueTrack(1, 'Far Away')];
    }
  });

  const provider = (
    baseUrl: string,
    extra: Partial<Parameters<typeof createItunesProvider>[0]> = {},
  ) =>
    createItunesProvider({
      baseUrl,
      allowPrivate: false,
      log: memoryLog().log,
      clock: new TestClock(),
      cacheTtlMs: 0,
      ...extra,
    });

  describe('without CATALOGUE_ALLOW_PRIVATE', () => {
    it.each([
      ['a loopback address', (f: Fake) => f.url],
      ['localhost, which resolves to loopback', (f: Fake) => `http://localhost:${f.port}`],
      ['loopback written as one number', (f: Fake) => `http://2130706433:${f.port}`],
      ['IPv4-mapped loopback', (f: Fake) => `http://[::ffff:127.0.0.1]:${f.port}`],
    ])('refuses %s before any request is made', async (_what, url) => {
      const { lines, log } = memoryLog();
      const tracks = await provider(url(fake), { log }).searchTracks('hello', 20);
      expect(tracks).toEqual([]);
      expect(fake.requests).toEqual([]);
      expect(lines.map((l) => l.msg)).toEqual(['external catalogue search failed']);
    });

    it('refuses a public-looking name that resolves to a private address, and connects to exactly the address it checked', async () => {
      // catalogue.test never resolves in real DNS: the request can only reach the fake
      // through the address the guarded lookup handed to the socket.
      const resolve = async (host: string) => {
        expect(host).toBe('catalogue.test');
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const url = `http://catalogue.test:${fake.port}`;
      expect(await provider(url, { resolve }).searchTracks('hello', 20)).toEqual([]);
      expect(fake.requests).toEqual([]);

      const allowed = await provider(url, { resolve, allowPrivate: true }).searchTracks(
        'hello',
        20,
      );
      expect(allowed.map((t) => t.title)).toEqual(['Far Away']);
      expect(fake.requests).toHaveLength(1);
    });

    it('refuses a name whose answer mixes public and private addresses (rebinding)', async () => {
      // Public first: a guard that checked only the first answer would let the socket fall
      // through to the loopback one when the public one does not answer.
      const resolve = async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
      const url = `http://catalogue.test:${fake.port}`;
      expect(await provider(url, { resolve }).searchTracks('hello', 20)).toEqual([]);
      expect(fake.requests).toEqual([]);
      // The control: allowed, the socket does reach the loopback answer.
      await provider(url, { resolve, allowPrivate: true }).searchTracks('hello', 20);
      expect(fake.requests).toHaveLength(1);
    });
  });

  describe('redirects', () => {
    it.each([
      ['another host', () => `${other.url}/search?term=x&entity=song&limit=20`],
      ['the PostgreSQL port', () => 'http://127.0.0.1:5432/'],
      ['the same host', () => `${fake.url}/search?term=y&entity=song&limit=20`],
    ])('follows none, to %s: a 3xx is a failure', async (_what, target) => {
      fake.mode = 'redirect';
      fake.redirectTo = target();
      const { lines, log } = memoryLog();
      // Allowed private, so that only the redirect rule can stop it.
      const p = provider(fake.url, { allowPrivate: true, log });
      expect(await p.searchTracks('hello', 20)).toEqual([]);
      expect(fake.requests).toHaveLength(1);
      expect(other.requests).toEqual([]);
      expect(lines).toEqual([{ level: 'info', msg: 'external catalogue search failed' }]);
    });
  });

  it('drops tracks whose preview, and artwork that, points into a private network', async () => {
    fake.tracks = [
      catalogueTrack(1, 'Public'),
      catalogueTrack(2, 'Loopback preview', { previewUrl: 'https://127.0.0.1/2.m4a' }),
      catalogueTrack(3, 'IPv6 loopback preview', { previewUrl: 'https://[::1]/3.m4a' }),
      catalogueTrack(4, 'Router preview', { previewUrl: 'https://192.168.1.1/4.m4a' }),
      catalogueTrack(5, 'Metadata preview', { previewUrl: 'https://169.254.169.254/5' }),
      catalogueTrack(6, 'Localhost preview', { previewUrl: 'https://localhost:8443/6.m4a' }),
      catalogueTrack(7, 'Ftp preview', { previewUrl: 'ftp://audio.example.com/7.m4a' }),
      catalogueTrack(8, 'Private artwork', { artworkUrl100: 'https://10.0.0.7/8.jpg' }),
    ];
    const tracks = await provider(fake.url, { allowPrivate: true }).searchTracks('hello', 20);
    expect(tracks.map((t) => [t.title, t.previewUrl, t.coverArtUrl])).toEqual([
      ['Public', 'https://audio.example.com/1.m4a', 'https://is1.example.com/1/100x100bb.jpg'],
      ['Private artwork', 'https://audio.example.com/8.m4a', null],
    ]);
  });

  describe('circuit breaker', () => {
    it('stops asking a hanging catalogue after 3 timeouts, warns once, then tries one request per cool-down', async () => {
      fake.mode = 'hang';
      const clock = new TestClock();
      const { lines, log } = memoryLog();
      const p = provider(fake.url, { allowPrivate: true, timeoutMs: 150, clock, log });
      for (let i = 0; i < 3; i++) expect(await p.searchTracks(`q${i}`, 20)).toEqual([]);
      expect(fake.requests).toHaveLength(3);

      // Open: searches answer without a request, so without waiting for the timeout.
      for (let i = 3; i < 10; i++) expect(await p.searchTracks(`q${i}`, 20)).toEqual([]);
      expect(fake.requests).toHaveLength(3);
      expect(lines.filter((l) => l.level === 'warn')).toEqual([
        {
          level: 'warn',
          msg: 'external catalogue keeps failing: searches skip it until a trial request succeeds',
        },
      ]);

      clock.advance(29_999);
      await p.searchTracks('still closed', 20);
      expect(fake.requests).toHaveLength(3);
      clock.advance(1);
      // One trial; it times out, so the breaker opens again for twice as long.
      await Promise.all([p.searchTracks('trial', 20), p.searchTracks('beside the trial', 20)]);
      expect(fake.requests).toHaveLength(4);
      clock.advance(30_000);
      await p.searchTracks('after 30 s', 20);
      expect(fake.requests).toHaveLength(4);

      clock.advance(30_000);
      fake.mode = 'ok';
      const back = await p.searchTracks('trial 2', 20);
      expect(back.map((t) => t.title)).toEqual(['Far Away']);
      expect(fake.requests).toHaveLength(5);
      // Closed again: every search asks.
      await p.searchTracks('next', 20);
      expect(fake.requests).toHaveLength(6);
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
      expect(lines.at(-1)).toEqual({ level: 'info', msg: 'external catalogue answers again' });
    });

    it('still answers from its cache while open', async () => {
      const clock = new TestClock();
      const p = provider(fake.url, {
        allowPrivate: true,
        cacheTtlMs: 60_000,
        timeoutMs: 150,
        clock,
      });
      expect(await p.searchTracks('cached', 20)).toHaveLength(1);
      fake.mode = 'hang';
      for (let i = 0; i < 3; i++) await p.searchTracks(`miss ${i}`, 20);
      expect(await p.searchTracks('cached', 20)).toHaveLength(1);
      expect(fake.requests).toHaveLength(4);
    });
  });
});

describe.each(dbKinds)('the external catalogue in the app on %s', (kind) => {
  describe('offline (a hanging catalogue)', () => {
    let fake: Fake;
    const env: Record<string, string> = {};
    beforeAll(async () => {
      fake = await startFake();
      Object.assign(env, {
        CATALOGUE_URL: fake.url,
        CATALOGUE_ALLOW_PRIVATE: '1',
        CATALOGUE_TIMEOUT_MS: '200',
      });
    });
    afterAll(() => fake?.close());
    const ctx = useTestApp(kind, env);
    let listener: TestUser;
    beforeAll(async () => {
      listener = await makeUser(ctx, 'listener');
    });
    const search = async (q: string) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/search?${new URLSearchParams({ q })}`,
        headers: listener.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json();
    };

    it('answers a search with no local match without asking, once the catalogue failed 3 times', async () => {
      fake.mode = 'hang';
      for (const q of ['zebulon', 'quixotic', 'marmalade'])
        expect(await search(q)).toEqual({ songs: [], podcasts: [], external: false });
      expect(fake.requests).toHaveLength(3);

      expect(await search('thunderclap')).toEqual({ songs: [], podcasts: [], external: false });
      expect(await search('nebulous')).toEqual({ songs: [], podcasts: [], external: false });
      expect(fake.requests).toHaveLength(3);

      // After the cool-down (the app's clock) one trial finds the catalogue back.
      ctx.clock.advance(30_000);
      fake.mode = 'ok';
      fake.tracks = [catalogueTrack(9, 'Back Online')];
      const back = await search('back online');
      expect(back.external).toBe(true);
      expect(back.songs.map((s: { title: string }) => s.title)).toEqual(['Back Online']);
      expect(fake.requests).toHaveLength(4);
    });
  });

  describe('without CATALOGUE_ALLOW_PRIVATE', () => {
    let fake: Fake;
    const env: Record<string, string> = {};
    beforeAll(async () => {
      fake = await startFake();
      fake.tracks = [catalogueTrack(1, 'Should Not Show')];
      env.CATALOGUE_URL = `http://localhost:${fake.port}`;
    });
    afterAll(() => fake?.close());
    const ctx = useTestApp(kind, env);

    it('never reaches a catalogue on localhost, for search or home', async () => {
      const listener = await makeUser(ctx, 'listener');
      const get = (url: string) =>
        ctx.app.inject({ method: 'GET', url, headers: listener.headers });
      const search = await get('/api/search?q=anything');
      expect(search.statusCode).toBe(200);
      expect(search.json()).toEqual({ songs: [], podcasts: [], external: false });
      const home = await get('/api/songs/home');
      expect(home.json()).toEqual({ recent: [], popular: [], external: false });
      expect(fake.requests).toEqual([]);
    });
  });
});
