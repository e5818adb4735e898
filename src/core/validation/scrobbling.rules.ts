/**
 * Scrobbling (docs/decisions/0038): which plays count on a listener's ListenBrainz or Last.fm
 * profile, by both services' published rule, and the words the settings card and API use.
 */

export const SCROBBLE_SERVICES = ['listenbrainz', 'lastfm'] as const;
export type ScrobbleService = (typeof SCROBBLE_SERVICES)[number];

/** A track shorter than this is never scrobbled. */
export const SCROBBLE_MIN_TRACK_MS = 30_000;
/** Heard this long, a track is scrobbled whatever its length. */
export const SCROBBLE_ENOUGH_MS = 4 * 60_000;

/** The longest ListenBrainz user token accepted (theirs are UUIDs). */
export const LISTENBRAINZ_TOKEN_MAX = 200;

/**
 * How much of a track must be heard before it is scrobbled: half of it or 4 minutes,
 * whichever comes first; null when the track is too short to be scrobbled at all. A track of
 * unknown length needs the 4 minutes.
 */
export function scrobbleThresholdMs(durationMs: number | null): number | null {
  if (durationMs === null || durationMs <= 0) return SCROBBLE_ENOUGH_MS;
  if (durationMs < SCROBBLE_MIN_TRACK_MS) return null;
  return Math.min(Math.ceil(durationMs / 2), SCROBBLE_ENOUGH_MS);
}

/**
 * Whether a report that raised a play from `previousMs` to `listenedMs` heard is the one that
 * crossed the rule. Reports of one play are serialised by a row lock and the total only grows,
 * so exactly one report crosses it.
 */
export function crossedScrobbleThreshold(
  durationMs: number | null,
  previousMs: number,
  listenedMs: number,
): boolean {
  const threshold = scrobbleThresholdMs(durationMs);
  return threshold !== null && previousMs < threshold && listenedMs >= threshold;
}

export const scrobbleMessages = {
  invalidListenBrainzToken: 'Invalid ListenBrainz token',
  lastfmUnavailable: 'Last.fm is not set up on this server',
  lastfmNotStarted: 'Start connecting Last.fm first',
  lastfmNotAllowed: "Allow Canto's access on Last.fm first, then try again",
  serviceUnavailable: 'The scrobbling service cannot be reached right now. Please try again.',
  tokenRequired: 'Enter your ListenBrainz user token',
} as const;
