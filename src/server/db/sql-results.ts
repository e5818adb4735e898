import crypto from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * The rows of a raw SQL statement (`db.execute`), typed by the caller. Both drivers (PGlite,
 * node-postgres) answer `{ rows }`; Drizzle types that answer per driver, so raw statements
 * are read through this one cast.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const dialect = new PgDialect();

/**
 * `queryRows` as a named statement, named after its text: on a PostgreSQL server each
 * connection parses it once, and after five runs PostgreSQL may keep one generic plan for it
 * instead of planning every run (plan_cache_mode auto); PGlite ignores the name. For
 * statements of a few shapes whose planning is a large part of their cost: every distinct
 * text stays prepared on every connection for its life. Drizzle's own `execute` with a name,
 * so the rows are parsed exactly as `queryRows` parses them.
 */
export async function queryRowsNamed<T>(db: Db, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `canto_${crypto.createHash('sha1').update(built.sql).digest('base64url')}`;
  const result = await db._.session.prepareQuery(built, undefined, name, false).execute();
  return (result as unknown as { rows: T[] }).rows;
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
