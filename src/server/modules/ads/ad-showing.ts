/*
 * When a showing's impression counts (docs/decisions/0023). A showing is a row the server
 * wrote when it handed one ad to one listener; its impression is money (0.5 ¢ to the artist or
 * show creator it names), so it counts only for an ad still active, a listener still free, once
 * the ad has had its whole duration and before the showing expires. Pure, so the rule is one
 * place the service and its property test share.
 */

/** How long a showing may be reported: long enough for the longest ad (600 s) and a pause. */
export const SHOWING_TTL_MS = 60 * 60 * 1000;

/**
 * How long after its start a stream record still names what the listener is playing: the
 * item's duration and this much for pauses. Older, and the ad is shown over nothing.
 */
export const CURRENT_PLAY_GRACE_MS = 10 * 60 * 1000;

export type ImpressionRefusal = 'ad-inactive' | 'premium' | 'expired' | 'too-early';

export type ShowingFacts = {
  /** When the server issued the showing (its clock). */
  issuedAt: Date;
  /** The ad's duration when it was issued. */
  durationMs: number;
  /** Whether the ad is active now. */
  adActive: boolean;
  /** Whether the listener has premium now. */
  premium: boolean;
};

/** Why this showing's impression may not be recorded at `now`; null when it may. */
export function impressionRefusal(facts: ShowingFacts, now: Date): ImpressionRefusal | null {
  if (!facts.adActive) return 'ad-inactive';
  if (facts.premium) return 'premium';
  const elapsed = now.getTime() - facts.issuedAt.getTime();
  if (elapsed >= SHOWING_TTL_MS) return 'expired';
  if (elapsed < facts.durationMs) return 'too-early';
  return null;
}

/** The first moment a new showing may be issued after one issued at `lastAt`. */
export const nextShowingAt = (lastAt: Date, intervalSeconds: number) =>
  new Date(lastAt.getTime() + intervalSeconds * 1000);
