// What the player does while a podcast episode plays (speeds, skips), apart from the zod rules
// in podcast.rules.ts (which re-exports these): the player is in every signed-in page's
// bundle, and importing the rules file there would pull zod into it.

/** The speeds a podcast plays at, and the skip buttons while one plays. */
export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const SKIP_BACK_SECONDS = 15;
export const SKIP_FORWARD_SECONDS = 30;
