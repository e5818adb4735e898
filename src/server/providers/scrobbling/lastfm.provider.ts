import crypto from 'node:crypto';
import { z } from 'zod';
import { createOutboundClient, type Resolve } from '../../security/outbound-guard.ts';
import {
  failureOfStatus,
  networkFailure,
  ScrobbleError,
  type ScrobbleFailure,
  type ScrobbleSender,
} from './scrobble-provider.ts';

export type LastfmOptions = {
  /** LASTFM_API_URL, e.g. https://ws.audioscrobbler.com/2.0/ (tests: a local fake). */
  apiUrl: string;
  /** LASTFM_AUTH_URL, where the listener allows access, e.g. https://www.last.fm. */
  authUrl: string;
  apiKey: string;
  apiSecret: string;
  /** SCROBBLE_ALLOW_PRIVATE: lets a fake on 127.0.0.1 through; off in production. */
  allowPrivate: boolean;
  timeoutMs: number;
  resolve?: Resolve;
};

export type LastfmProvider = ScrobbleSender & {
  /** A request token (auth.getToken) and the page where the listener allows access with it. */
  start(): Promise<{ token: string; authUrl: string }>;
  /**
   * The session of a token the listener has allowed (auth.getSession). A token not allowed
   * yet, expired or unknown is a ScrobbleError of kind 'rejected' carrying Last.fm's code.
   */
  session(token: string): Promise<{ name: string; key: string }>;
};

/**
 * Last.fm's signature: every parameter but `format` and `callback`, sorted by name, each
 * name then value, then the shared secret, hashed with MD5 (the protocol's choice, not ours:
 * https://www.last.fm/api/authspec section 8).
 */
export function lastfmSignature(params: Record<string, string>, secret: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'format' && k !== 'callback')
    .sort()
    .map((k) => `${k}${params[k]}`)
    .join('');
  return crypto
    .createHash('md5')
    .update(text + secret, 'utf8')
    .digest('hex');
}

/** Last.fm error codes (https://www.last.fm/api/errorcodes) and what each means for us. */
export function failureOfLastfmCode(code: number): ScrobbleFailure {
  // 9 invalid session key, 4 authentication failed: the listener's access is gone.
  if (code === 9 || code === 4) return 'auth';
  // 8 operation failed, 11 offline, 16 temporarily unavailable, 29 rate limited; 10 and 26
  // (the app's key invalid or suspended) are the operator's to fix, so keep the plays.
  if ([8, 10, 11, 16, 26, 29].includes(code)) return 'retry';
  return 'rejected';
}

export class LastfmError extends ScrobbleError {
  constructor(
    failure: ScrobbleFailure,
    readonly code: number,
    message: string,
  ) {
    super(failure, message);
  }
}

const errorBody = z.object({ error: z.number(), message: z.string().optional() });
const tokenBody = z.object({ token: z.string().min(1).max(200) });
const sessionBody = z.object({
  session: z.object({ name: z.string().min(1).max(200), key: z.string().min(1).max(200) }),
});

/** Last.fm's API 2.0 for desktop apps: auth.getToken/getSession, updateNowPlaying, scrobble. */
export function createLastfmProvider(options: LastfmOptions): LastfmProvider {
  const client = createOutboundClient({
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
  });
  const signed = (params: Record<string, string>) => {
    const all = { ...params, api_key: options.apiKey };
    return { ...all, api_sig: lastfmSignature(all, options.apiSecret), format: 'json' };
  };

  async function call(
    http: 'GET' | 'POST',
    params: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const form = new URLSearchParams(signed(params)).toString();
    let status: number;
    let text: string;
    try {
      const init = { signal: AbortSignal.timeout(options.timeoutMs) };
      const answer =
        http === 'GET'
          ? await client.get(new URL(`${options.apiUrl}?${form}`), init)
          : await client.post(new URL(options.apiUrl), {
              ...init,
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              body: form,
            });
      status = answer.status;
      text = answer.body.toString('utf8');
    } catch (error) {
      throw networkFailure(error);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ScrobbleError(
        failureOfStatus(status === 200 ? 502 : status),
        `Last.fm answered ${status} without JSON`,
      );
    }
    const error = errorBody.safeParse(json);
    if (error.success) {
      const { error: code, message } = error.data;
      throw new LastfmError(failureOfLastfmCode(code), code, `Last.fm error ${code}: ${message}`);
    }
    if (status !== 200)
      throw new ScrobbleError(failureOfStatus(status), `Last.fm answered ${status}`);
    return json as Record<string, unknown>;
  }

  const duration = (ms: number | null): Record<string, string> =>
    ms ? { duration: String(Math.round(ms / 1000)) } : {};

  return {
    async start() {
      const parsed = tokenBody.safeParse(await call('GET', { method: 'auth.getToken' }));
      if (!parsed.success) throw new ScrobbleError('retry', 'Last.fm answered without a token');
      const { token } = parsed.data;
      const page = new URL('/api/auth/', options.authUrl);
      page.search = new URLSearchParams({ api_key: options.apiKey, token }).toString();
      return { token, authUrl: page.toString() };
    },

    async session(token) {
      const parsed = sessionBody.safeParse(await call('GET', { method: 'auth.getSession', token }));
      if (!parsed.success) throw new ScrobbleError('retry', 'Last.fm answered without a session');
      return parsed.data.session;
    },

    async nowPlaying(sessionKey, track) {
      await call('POST', {
        method: 'track.updateNowPlaying',
        artist: track.artist,
        track: track.track,
        ...duration(track.durationMs),
        sk: sessionKey,
      });
    },

    async scrobble(sessionKey, listen) {
      await call('POST', {
        method: 'track.scrobble',
        artist: listen.artist,
        track: listen.track,
        timestamp: String(Math.floor(listen.listenedAt.getTime() / 1000)),
        ...duration(listen.durationMs),
        sk: sessionKey,
      });
    },
  };
}
