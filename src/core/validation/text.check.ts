// What every line of user text (titles, genres, display names, search filters) goes through before
// it is checked or stored (docs/decisions/0006, "Bad bytes"). Plain functions without zod, so the
// /auth page's own checks (auth.check.ts) use them too; text.rules.ts builds the zod rules from
// them.

export const textMessages = {
  nul: 'Text must not contain NUL characters',
  malformed: 'Text must be well-formed Unicode',
} as const;

/**
 * Unicode direction controls: embeddings and overrides (U+202A–U+202E), isolates
 * (U+2066–U+2069) and the marks LRM, RLM and ALM (U+200E, U+200F, U+061C). They are
 * invisible, yet reorder what follows them: "Song\u202Egpj.3pm" shows as "Songmp3.jpg", and
 * an unclosed override spills into the text around it wherever the value is shown.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * What shows nothing on its own: whitespace and separators, control and format characters
 * (zero-width space and joiners, BOM, soft hyphen, word joiner, tag characters…), the
 * combining grapheme joiner, variation selectors, and the letters that render blank (Hangul
 * fillers, the braille blank).
 */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- single code points, no sequences
  /[\s\p{Z}\p{Cc}\p{Cf}\u034F\u115F\u1160\u2800\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/** PostgreSQL text cannot hold U+0000: such a value is refused, never stored. */
export const hasNul = (text: string): boolean => text.includes('\0');

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * False when `text` holds a lone UTF-16 surrogate (JSON's "\ud800" escape makes one): it has
 * no UTF-8 form, so encodeURIComponent throws on it and PostgreSQL cannot store it.
 * String.prototype.isWellFormed, for the ES2023 library this code is typed against.
 */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

export const stripBidiControls = (text: string): string => text.replace(BIDI_CONTROLS, '');

/** A line of user text as it is checked and stored: direction controls removed, trimmed. */
export const cleanLine = (text: string): string => stripBidiControls(text).trim();

/** How many characters (code points) of `text` would show. */
export const visibleLength = (text: string): number => {
  let count = 0;
  for (const _ of text.replace(INVISIBLE, '')) count++;
  return count;
};

/** True when nothing of `text` would show: empty, or only invisible characters. */
export const isInvisible = (text: string): boolean => visibleLength(text) === 0;
