import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * The rows of a raw SQL statement (`db.execute`), typed by the caller. Both drivers (PGlite,
 * node-postgres) answer `{ rows }`; Drizzle types that answer per driver, so raw statements
 * are read through this one cast.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Whether a database error, or one it wraps (Drizzle puts the driver's error in `cause`),
 * carries this SQLSTATE, e.g. '23505' unique violation, '23503' foreign-key violation.
 */
export function isSqlState(error: unknown, code: string): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e.code === code) return true;
  return false;
}
