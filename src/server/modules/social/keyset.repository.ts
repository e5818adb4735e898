import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Position } from './list-position.ts';

// The SQL of list-position.ts's keyset pages, for this module's repositories.

/** The column as the microseconds of a position (bigint as text: past 2^53 in JS). */
export const positionOf = (createdAt: AnyPgColumn): SQL<string> =>
  sql<string>`((extract(epoch from ${createdAt}) * 1000000)::bigint)::text`;

/** Rows after `position` in (created_at desc, id desc) order. */
export const afterPosition = (createdAt: AnyPgColumn, id: AnyPgColumn, position: Position): SQL =>
  sql`(${createdAt}, ${id}) < (timestamptz 'epoch' + ${position.micros}::bigint * interval '1 microsecond', ${position.id}::uuid)`;
