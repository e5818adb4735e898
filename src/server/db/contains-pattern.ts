import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/*
 * "Contains", as spec §7's searches mean it: ILIKE '%q%' with the query's own `%`, `_` and
 * `\` taken literally (song search, ADR 0006/0011; podcast search).
 */

/** `%`, `_` and `\` matched literally inside `ILIKE '%…%' ESCAPE '\'`. */
export function containsPattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, '\\$&')}%`;
}

/** `column` contains the query whose `containsPattern` is `pattern`, ignoring case. */
export const containsCi = (column: AnyPgColumn, pattern: string) =>
  sql`${column} ilike ${pattern} escape '\\'`;
