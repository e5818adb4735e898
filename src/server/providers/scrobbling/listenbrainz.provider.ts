import { z } from 'zod';
import { createOutboundClient, type Resolve } from '../../security/outbound-guard.ts';
import {
  failureOfStatus,
  networkFailure,
  ScrobbleError,
  type Listen,
  type ScrobbleSender,
  type ScrobbleTrack,
} from './scrobble-provider.ts';

export type ListenBrainzOptions = {
  /** LISTENBRAINZ_URL, e.g. https://api.listenbrainz.org (tests point it at a local fake). */
  baseUrl: string;
  /** SCROBBLE_ALLOW_PRIVATE: lets a fake on 127.0.0.1 through; off in production. */
  allowPrivate: boolean;
  /** Where a listen was heard (additional_info.origin_url): the server's public URL. */
  originUrl: string;
  timeoutMs: number;
  resolve?: Resolve;
};

export type ListenBrainzProvider = ScrobbleSender & {
  /** The token's user name, or null when ListenBrainz says the token is not valid. */
  validateToken(token: string): Promise<string | null>;
};

const validation = z.object({
  valid: z.boolean().optional(),
  user_name: z.string().min(1).max(200).optional(),
});

/**
 * ListenBrainz's API (https://listenbrainz.readthedocs.io/en/latest/users/api/): the user token
 * in `Authorization: Token …`, `POST /1/submit-listens` with `playing_now` or `single`
 * listens, `GET /1/validate-token`.
 */
export function createListenBrainzProvider(options: ListenBrainzOptions): ListenBrainzProvider {
  const client = createOutboundClient({
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
  });
  const base = options.baseUrl.replace(/\/$/, '');
  const headers = (token: string) => ({ Authorization: `Token ${token}` });

  const metadata = (track: ScrobbleTrack) => ({
    artist_name: track.artist,
    track_name: track.track,
    additional_info: {
      ...(track.durationMs ? { duration_ms: track.durationMs } : {}),
      submission_client: 'Canto',
      origin_url: options.originUrl,
    },
  });

  async function submit(token: string, body: unknown): Promise<void> {
    let status: number;
    let text: string;
    try {
      const answer = await client.post(new URL(`${base}/1/submit-listens`), {
        headers: { ...headers(token), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      status = answer.status;
      text = answer.body.toString('utf8').slice(0, 300);
    } catch (error) {
      throw networkFailure(error);
    }
    if (status === 200) return;
    throw new ScrobbleError(failureOfStatus(status), `ListenBrainz answered ${status}: ${text}`);
  }

  return {
    async validateToken(token) {
      let answer;
      try {
        answer = await client.get(new URL(`${base}/1/validate-token`), {
          headers: headers(token),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw networkFailure(error);
      }
      if (answer.status === 401 || answer.status === 400) return null;
      if (answer.status !== 200)
        throw new ScrobbleError('retry', `ListenBrainz answered ${answer.status}`);
      let parsed;
      try {
        parsed = validation.safeParse(JSON.parse(answer.body.toString('utf8')));
      } catch {
        throw new ScrobbleError('retry', 'ListenBrainz answered something other than JSON');
      }
      if (!parsed.success) throw new ScrobbleError('retry', 'ListenBrainz answered nonsense');
      return parsed.data.valid && parsed.data.user_name ? parsed.data.user_name : null;
    },

    nowPlaying: (token, track) =>
      submit(token, { listen_type: 'playing_now', payload: [{ track_metadata: metadata(track) }] }),

    scrobble: (token, listen: Listen) =>
      submit(token, {
        listen_type: 'single',
        payload: [
          {
            listened_at: Math.floor(listen.listenedAt.getTime() / 1000),
            track_metadata: metadata(listen),
          },
        ],
      }),
  };
}
