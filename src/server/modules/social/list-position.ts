/*
 * Keyset pages of newest-first lists (a profile's songs, the users one follows): a position
 * is a row's (created_at, id), with created_at as whole microseconds since the epoch, exactly
 * as PostgreSQL keeps it (a JS Date would round it to milliseconds and skip or repeat rows).
 * It names a place in the order, not a row, so deleting the last row of a page (an unfollow
 * on /following) does not end the list.
 */

export type Position = { micros: string; id: string };

export const encodeCursor = (position: Position): string => `${position.micros}_${position.id}`;

/** The contract's regex already checked the shape. */
export function decodeCursor(cursor: string | undefined): Position | null {
  if (!cursor) return null;
  const at = cursor.indexOf('_');
  return { micros: cursor.slice(0, at), id: cursor.slice(at + 1) };
}

/** A page of `limit` from `limit + 1` rows, and the cursor of the next page if there is one. */
export function pageOf<T extends { position: Position }>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeCursor(page[page.length - 1]!.position) };
}
