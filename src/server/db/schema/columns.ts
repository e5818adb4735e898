import { bigint, check, timestamp } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Shared column shapes for the feature schemas.
//
// Descending indexes are written `.desc().nullsFirst()`: that is what a plain
// `ORDER BY x DESC` means in PostgreSQL, and drizzle's bare `.desc()` emits NULLS LAST,
// an order the planner cannot serve from the index for such queries.

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Money is integer cents held as a JS bigint: never a float, and sums over
 * many rows stay exact. Serialise with `String(cents)` or `Number(cents)` at the edge.
 */
export const cents = (name: string) => bigint(name, { mode: 'bigint' });

/** A `CHECK (col >= 0)` named after its table and column. */
export const nonNegative = (name: string, column: AnyPgColumn) => check(name, sql`${column} >= 0`);

/** `CHECK (char_length(col) BETWEEN min AND max)`; NULL passes, as with every CHECK. */
export const lengthBetween = (
  name: string,
  column: AnyPgColumn,
  min: number,
  max: number,
): ReturnType<typeof check> =>
  check(
    name,
    sql`char_length(${column}) between ${sql.raw(String(min))} and ${sql.raw(String(max))}` as SQL,
  );

/** `CHECK (col ~ 'YYYY-MM')`: a UTC calendar month with a real month number (revenue months). */
export const yearMonth = (name: string, column: AnyPgColumn) =>
  check(name, sql`${column} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`);
