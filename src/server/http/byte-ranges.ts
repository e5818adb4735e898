/**
 * HTTP Range (RFC 9110 §14) for media, reduced to what players use: one range per request.
 *
 * - A malformed header, an unknown unit or more than one range is ignored: the client gets
 *   the whole file with 200, which RFC 9110 allows and every player handles. This also means
 *   `bytes=0-0,1-1,…` can never make the server build hundreds of parts.
 * - A header longer than MAX_RANGE_HEADER is ignored unread, so parsing cost is bounded.
 * - A syntactically valid single range that starts past the end is unsatisfiable (416).
 */
export const MAX_RANGE_HEADER = 1024;

export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };
// 15 digits stays within Number.MAX_SAFE_INTEGER.
const FROM_TO = /^(\d{1,15})-(\d{0,15})$/;
const SUFFIX = /^-(\d{1,15})$/;

export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined || header.length > MAX_RANGE_HEADER) return FULL;
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return FULL;
  const specs = header.slice(eq + 1).split(',');
  if (specs.length !== 1) return FULL;
  const spec = specs[0]!.trim();

  const suffix = SUFFIX.exec(spec);
  if (suffix) {
    const length = Number(suffix[1]);
    if (length === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }

  const fromTo = FROM_TO.exec(spec);
  if (!fromTo) return FULL;
  const start = Number(fromTo[1]);
  const last = fromTo[2] ? Number(fromTo[2]) : undefined;
  // last < first makes the range-spec invalid (not unsatisfiable): ignore it.
  if (last !== undefined && last < start) return FULL;
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'partial', start, end: Math.min(last ?? size - 1, size - 1) };
}

/** If-None-Match uses the weak comparison: W/"x" matches "x". */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = stripWeak(etag);
  return header.split(',').some((tag) => stripWeak(tag.trim()) === opaque);
}

/**
 * If-Range: the range applies only if the validator still matches — strong comparison for
 * an entity tag, exact equality (to the second) for a date.
 */
export function ifRangeMatches(
  header: string | undefined,
  etag: string,
  lastModified: Date,
): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/'))
    return !value.startsWith('W/') && value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === seconds(lastModified);
}

/** If-Modified-Since, consulted only when there is no If-None-Match. */
export function notModifiedSince(header: string | undefined, lastModified: Date): boolean {
  if (header === undefined) return false;
  const date = Date.parse(header);
  return !Number.isNaN(date) && seconds(lastModified) <= date;
}

const stripWeak = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;
