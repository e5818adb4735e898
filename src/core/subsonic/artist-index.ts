/** The articles Subsonic clients are told to ignore when sorting and indexing artists. */
export const IGNORED_ARTICLES = ['The', 'An', 'A'] as const;

/** The `ignoredArticles` attribute: the articles, space separated. */
export const IGNORED_ARTICLES_TEXT = IGNORED_ARTICLES.join(' ');

const articlePattern = new RegExp(`^(?:${IGNORED_ARTICLES.join('|')})\\s+(?=\\S)`, 'i');

/** The name without a leading article ('The Beatles' → 'Beatles'), trimmed. */
export function sortName(name: string): string {
  const trimmed = name.trim();
  return trimmed.replace(articlePattern, '');
}

/**
 * The index an artist is listed under: the first letter of its sort name, accents removed and
 * upper-cased ('Émile' → 'E'), or '#' for anything else (digits, symbols, other scripts).
 */
export function indexLetter(name: string): string {
  const first = sortName(name).normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

/** Compares two names by sort name, case-insensitively, then as written (stable order). */
export function compareBySortName(a: string, b: string): number {
  const x = sortName(a).toLowerCase();
  const y = sortName(b).toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}
