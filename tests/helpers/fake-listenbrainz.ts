// A local HTTP server that speaks the parts of ListenBrainz's API Canto uses
// (https://listenbrainz.readthedocs.io/en/latest/users/api/core.html): GET /1/validate-token
// and POST /1/submit-listens with `Authorization: Token <user token>`. It keeps every listen
// it accepted so tests can assert what reached "ListenBrainz", and can fail on purpose: answer
// 5xx to the next N submissions (an outage) or forget a token (revoked on the website).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ListenBrainzListen = {
  listen_type: 'playing_now' | 'single' | 'import';
  user: string;
  listened_at?: number;
  track_metadata: {
    artist_name: string;
    track_name: string;
    release_name?: string;
    additional_info?: Record<string, unknown>;
  };
};

export type FakeListenBrainz = {
  url: string;
  /** Valid user tokens and their user names. */
  tokens: Map<string, string>;
  /** Listens accepted, in order (playing_now ones included). */
  listens: ListenBrainzListen[];
  /** Every request, accepted or not. */
  requests: { method: string; path: string; status: number }[];
  /** The next `count` submissions answer `status` (default 503) and record nothing. */
  failNext(count: number, status?: number): void;
  revoke(token: string): void;
  /** Accepted listens of one kind, optionally of one user. */
  accepted(type: ListenBrainzListen['listen_type'], user?: string): ListenBrainzListen[];
  close(): Promise<void>;
};

const isText = (v: unknown) => typeof v === 'string' && v.length > 0;

/** A body submit-listens accepts, or the reason ListenBrainz would give for a 400. */
function checkSubmission(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'Invalid JSON document submitted.';
  const { listen_type: type, payload } = body as { listen_type?: unknown; payload?: unknown };
  if (type !== 'playing_now' && type !== 'single' && type !== 'import')
    return 'JSON document requires a valid listen_type key.';
  if (!Array.isArray(payload) || payload.length === 0) return 'JSON document must have a payload.';
  if (type !== 'import' && payload.length !== 1)
    return 'JSON document must contain exactly one listen for this listen_type.';
  for (const listen of payload as Record<string, unknown>[]) {
    const meta = listen.track_metadata as Record<string, unknown> | undefined;
    if (!meta || !isText(meta.artist_name) || !isText(meta.track_name))
      return 'JSON document must contain track_metadata with artist_name and track_name.';
    if (type === 'playing_now' && 'listened_at' in listen)
      return 'JSON document must not contain listened_at while submitting playing_now.';
    if (type !== 'playing_now' && !Number.isInteger(listen.listened_at))
      return 'JSON document must contain a listened_at timestamp.';
  }
  return null;
}

export async function startFakeListenBrainz(): Promise<FakeListenBrainz> {
  const tokens = new Map<string, string>();
  const listens: ListenBrainzListen[] = [];
  const requests: FakeListenBrainz['requests'] = [];
  let failing = 0;
  let failStatus = 503;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const answer = (status: number, body: unknown) => {
        requests.push({ method: req.method ?? '', path, status });
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const token = /^Token (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const user = token ? tokens.get(token) : undefined;

      if (req.method === 'GET' && path === '/1/validate-token') {
        if (!token)
          return answer(400, { code: 400, error: 'You need to provide an Authorization header.' });
        return answer(
          200,
          user
            ? { code: 200, message: 'Token valid.', valid: true, user_name: user }
            : { code: 200, message: 'Token invalid.', valid: false },
        );
      }
      if (req.method === 'POST' && path === '/1/submit-listens') {
        if (failing > 0) {
          failing -= 1;
          return answer(failStatus, { code: failStatus, error: 'Service unavailable' });
        }
        if (!user) return answer(401, { code: 401, error: 'Invalid authorization token.' });
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return answer(400, { code: 400, error: 'Cannot parse JSON document.' });
        }
        const problem = checkSubmission(body);
        if (problem) return answer(400, { code: 400, error: problem });
        const { listen_type, payload } = body as {
          listen_type: ListenBrainzListen['listen_type'];
          payload: Omit<ListenBrainzListen, 'listen_type' | 'user'>[];
        };
        for (const listen of payload) listens.push({ ...listen, listen_type, user });
        return answer(200, { status: 'ok' });
      }
      answer(404, { code: 404, error: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    listens,
    requests,
    failNext(count, status = 503) {
      failing = count;
      failStatus = status;
    },
    revoke: (token) => void tokens.delete(token),
    accepted: (type, user) =>
      listens.filter((l) => l.listen_type === type && (user === undefined || l.user === user)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
