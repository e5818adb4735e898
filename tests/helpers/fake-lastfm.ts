// A local HTTP server that speaks the parts of Last.fm's API 2.0 Canto uses
// (https://www.last.fm/api/desktopauth, /api/show/track.scrobble): auth.getToken,
// the page where a listener allows access (/api/auth/), auth.getSession,
// track.updateNowPlaying and track.scrobble. Every call's api_key and api_sig are checked
// as Last.fm checks them (MD5 of the sorted parameters and the shared secret; error 13 when
// wrong). It keeps what it accepted and can fail on purpose: 5xx for the next N calls (an
// outage) or a session key revoked (the listener removed the app on last.fm: error 9).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const LASTFM_TEST_KEY = 'canto-test-api-key';
export const LASTFM_TEST_SECRET = 'canto-test-shared-secret';

export type LastfmCall = { method: string; params: Record<string, string> };

export type FakeLastfm = {
  /** The API root (LASTFM_API_URL) is `${url}/2.0/`; the auth pages (LASTFM_AUTH_URL) `url`. */
  url: string;
  apiUrl: string;
  /** Calls accepted, by method (auth.getToken, track.scrobble, …). */
  calls: LastfmCall[];
  /** Calls refused for a bad signature or key: a correct client makes none. */
  badSignatures: number;
  /** The listener allows access for a request token, as the auth page's button does. */
  allow(token: string, user: string): void;
  /** The next `count` calls answer `status` (default 503) with a non-JSON body. */
  failNext(count: number, status?: number): void;
  revoke(sessionKey: string): void;
  /** Session keys given out, by user name. */
  sessions: Map<string, string>;
  accepted(method: string): LastfmCall[];
  close(): Promise<void>;
};

function signature(params: Record<string, string>, secret: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'format' && k !== 'callback' && k !== 'api_sig')
    .sort()
    .map((k) => `${k}${params[k]}`)
    .join('');
  return crypto
    .createHash('md5')
    .update(text + secret, 'utf8')
    .digest('hex');
}

export async function startFakeLastfm(
  options: { apiKey?: string; secret?: string } = {},
): Promise<FakeLastfm> {
  const apiKey = options.apiKey ?? LASTFM_TEST_KEY;
  const secret = options.secret ?? LASTFM_TEST_SECRET;
  // Request tokens: the user who allowed it, or null while not allowed yet.
  const tokens = new Map<string, string | null>();
  // Session keys and their users.
  const keys = new Map<string, string>();
  const sessions = new Map<string, string>();
  const calls: LastfmCall[] = [];
  let badSignatures = 0;
  let failing = 0;
  let failStatus = 503;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, code: number, message: string) =>
        json(status, { error: code, message });

      // The page a listener opens to allow access; this fake allows at once as "fake-user".
      if (req.method === 'GET' && url.pathname === '/api/auth/') {
        const token = url.searchParams.get('token') ?? '';
        if (url.searchParams.get('api_key') !== apiKey || !tokens.has(token)) {
          res.writeHead(400, { 'Content-Type': 'text/html' });
          return res.end('<!doctype html><title>Last.fm</title><p>Invalid request</p>');
        }
        tokens.set(token, 'fake-user');
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end('<!doctype html><title>Last.fm</title><p>Application authorised</p>');
      }
      if (url.pathname !== '/2.0/') return error(404, 3, 'Invalid Method');

      if (failing > 0) {
        failing -= 1;
        res.writeHead(failStatus, { 'Content-Type': 'text/html' });
        return res.end('<html><body>Service Temporarily Unavailable</body></html>');
      }
      const params = Object.fromEntries(
        req.method === 'POST'
          ? new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
          : url.searchParams,
      );
      if (params.api_key !== apiKey) {
        badSignatures += 1;
        return error(403, 10, 'Invalid API key - You must be granted a valid key by last.fm');
      }
      if (params.api_sig !== signature(params, secret)) {
        badSignatures += 1;
        return error(403, 13, 'Invalid method signature supplied');
      }
      const method = params.method ?? '';
      const accept = (body: unknown) => {
        calls.push({ method, params });
        json(200, body);
      };
      const user = params.sk ? keys.get(params.sk) : undefined;

      switch (method) {
        case 'auth.getToken': {
          const token = crypto.randomBytes(16).toString('hex');
          tokens.set(token, null);
          return accept({ token });
        }
        case 'auth.getSession': {
          const token = params.token ?? '';
          if (!tokens.has(token)) return error(403, 4, 'Invalid authentication token supplied');
          const name = tokens.get(token);
          if (!name) return error(403, 14, 'This token has not been authorized');
          tokens.delete(token);
          const key = crypto.randomBytes(16).toString('hex');
          keys.set(key, name);
          sessions.set(name, key);
          return accept({ session: { name, key, subscriber: 0 } });
        }
        case 'track.updateNowPlaying':
        case 'track.scrobble': {
          if (req.method !== 'POST') return error(405, 3, 'Invalid Method - must be POST');
          if (!user) return error(403, 9, 'Invalid session key - Please re-authenticate');
          if (!params.artist || !params.track) return error(400, 6, 'Invalid parameters');
          if (method === 'track.updateNowPlaying')
            return accept({
              nowplaying: { artist: { '#text': params.artist }, track: { '#text': params.track } },
            });
          if (!/^\d+$/.test(params.timestamp ?? '')) return error(400, 6, 'Invalid parameters');
          return accept({
            scrobbles: {
              '@attr': { accepted: 1, ignored: 0 },
              scrobble: {
                artist: { '#text': params.artist },
                track: { '#text': params.track },
                timestamp: params.timestamp,
                ignoredMessage: { code: '0', '#text': '' },
              },
            },
          });
        }
        default:
          return error(400, 3, 'Invalid Method - No method with that name in this package');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    apiUrl: `${url}/2.0/`,
    calls,
    get badSignatures() {
      return badSignatures;
    },
    allow: (token, user) => void tokens.set(token, user),
    failNext(count, status = 503) {
      failing = count;
      failStatus = status;
    },
    revoke: (key) => void keys.delete(key),
    sessions,
    accepted: (method) => calls.filter((c) => c.method === method),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
