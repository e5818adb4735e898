// Listening records and stats (docs/decisions/0016, spec §9): constants web and server share.

/** A play is completed once this percentage of the item's duration was heard. */
export const COMPLETED_PERCENT = 90;
/** Spec §9: recently played shows the last 20 plays. */
export const RECENTLY_PLAYED_LIMIT = 20;
/** Spec §9: top lists show 5 (artists, genres, songs). */
export const STATS_TOP = 5;
/** Spec §9: the stats activity window, today included. */
export const STATS_ACTIVITY_DAYS = 7;
/** listened_ms is a PostgreSQL integer: a larger report is refused, never overflowed. */
export const MAX_LISTENED_MS = 2_147_483_647;

export const listeningMessages = {
  listenedMs: 'listened_ms must be a whole number of milliseconds from 0 to 2147483647',
  playInFuture: 'A play cannot start in the future',
  playTooOld: 'A play older than 14 days cannot be recorded',
  playIdTaken: 'This play id is already used by another play',
} as const;
/**
 * Plays recorded afterwards (a download heard offline, sent when the network is back) follow
 * the Subsonic scrobble's rules: a start up to a minute ahead of the server's clock (devices'
 * clocks drift), and no older than 14 days (Last.fm's rule).
 */
export const OFFLINE_PLAY_MAX_AHEAD_MS = 60_000;
export const OFFLINE_PLAY_MAX_AGE_MS = 14 * 24 * 3600_000;
/** At most this many pending plays per fold statement, so one transaction stays short. */
export const PLAY_COUNT_FOLD_BATCH = 10_000;
/**
 * At most this many pending listener-total changes per fold statement: a listener's stats
 * read waits for a fold under way (same advisory lock), so each one stays tens of ms.
 */
export const LISTENER_TOTALS_FOLD_BATCH = 1_000;
