/**
 * The scrobbling services (ListenBrainz, Last.fm; docs/decisions/0038): what one listener's
 * connection sends them. Each provider speaks its service's own HTTP API through the outbound
 * guard; base URLs come from settings so tests reach local fakes.
 */

/** A track as the services take it. */
export type ScrobbleTrack = {
  artist: string;
  track: string;
  /** Whole milliseconds; null when unknown. */
  durationMs: number | null;
};

/** A play to count: the track and when it started. */
export type Listen = ScrobbleTrack & { listenedAt: Date };

/**
 * Why a call failed: `auth` the listener's token or session is wrong or revoked (the
 * connection is disconnected, nothing retried); `retry` the service is down, slow, rate
 * limiting or unreachable (tried again later); `rejected` the service refused this one
 * request for good (not retried).
 */
export type ScrobbleFailure = 'auth' | 'retry' | 'rejected';

export class ScrobbleError extends Error {
  constructor(
    readonly failure: ScrobbleFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ScrobbleError';
  }
}

/** What both services do for a connected listener; `secret` is their token or session key. */
export interface ScrobbleSender {
  nowPlaying(secret: string, track: ScrobbleTrack): Promise<void>;
  scrobble(secret: string, listen: Listen): Promise<void>;
}

/** The failure an HTTP status stands for when the body says nothing more specific. */
export function failureOfStatus(status: number): ScrobbleFailure {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429 || status >= 500 || status < 200 || (status >= 300 && status < 400))
    return 'retry';
  return 'rejected';
}

/** A network failure, timeout or refused connection: always worth another try later. */
export function networkFailure(error: unknown): ScrobbleError {
  if (error instanceof ScrobbleError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ScrobbleError('retry', `unreachable: ${message}`);
}
