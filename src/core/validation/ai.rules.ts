// The AI Music Creator (spec §2, §5, §8): what a prompt may be and the words people read.
// Shared by web and server; pure.

/** A prompt's longest length in characters: a description, not a document. */
export const PROMPT_MAX = 1000;
/** The largest seed (a 31-bit integer, so it survives every JSON number and int column). */
export const SEED_MAX = 2_147_483_647;
/** Generations the history shows, newest first. */
export const HISTORY_LIMIT = 20;
/** The cover art's side in pixels (a square, as music stores ask for). */
export const COVER_SIZE = 1400;

export const AI_KINDS = ['lyrics', 'cover-art'] as const;
export type AiKind = (typeof AI_KINDS)[number];

export const aiMessages = {
  promptRequired: 'Prompt required',
  promptTooLong: `Prompt must be at most ${PROMPT_MAX} characters`,
  promptInvalid: 'Prompt contains characters that are not allowed',
  generated: 'Generated successfully!',
  failed: 'Generation failed',
  rateLimited: 'You have used this hour’s AI generations. Please try again later.',
} as const;

/** The first rule a prompt breaks, or null when it may be sent. */
export function promptProblem(prompt: string): string | null {
  if (prompt.trim() === '') return aiMessages.promptRequired;
  if (prompt.length > PROMPT_MAX) return aiMessages.promptTooLong;
  // NUL and other control characters but tab and newlines.
  for (let i = 0; i < prompt.length; i++) {
    const c = prompt.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return aiMessages.promptInvalid;
  }
  return null;
}
