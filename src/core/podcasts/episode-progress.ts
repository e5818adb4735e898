import { PLAYED_WITHIN_MS_OF_END } from '../validation/podcast.rules.ts';

/*
 * When an episode counts as played (docs/decisions/0018: played / in progress, resumed on
 * any device). Pure: the server decides with it, the player may show the same thing early.
 */

/** Share of an episode heard that counts as played, wherever the end is. */
const PLAYED_SHARE = 0.95;

/**
 * Played once within PLAYED_WITHIN_MS_OF_END of the end or 95 % in, but never before the
 * middle: a 20-second episode is within 30 s of its end from the start.
 */
export function isPlayed(positionMs: number, durationMs: number | null): boolean {
  if (durationMs === null || durationMs <= 0) return false;
  if (positionMs >= durationMs * PLAYED_SHARE) return true;
  return durationMs - positionMs <= PLAYED_WITHIN_MS_OF_END && positionMs >= durationMs / 2;
}

/** A reported position (seconds) as stored: whole milliseconds, within the episode. */
export function storedPositionMs(positionSeconds: number, durationMs: number | null): number {
  const ms = Math.max(0, Math.round(positionSeconds * 1000));
  return durationMs === null ? ms : Math.min(ms, durationMs);
}
