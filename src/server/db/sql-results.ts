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

/** Runs a named statement on a PostgreSQL server's pool (registered by openPostgres). */
type NamedRunner = (name: string, text: string, values: unknown[]) => Promise<unknown[]>;
const namedRunners = new WeakMap<Db, NamedRunner>();
const dialect = new PgDialect();

/** openPostgres registers its pool: `queryRowsNamed` on that database uses named statements. */
export function registerNamedStatements(db: Db, run: NamedRunner): void {
  namedRunners.set(db, run);
}

/**
 * `queryRows` as a named statement on a PostgreSQL server, named after its text: each
 * connection parses it once, and after five runs PostgreSQL may keep one generic plan for
 * it instead of planning every run (plan_cache_mode auto). For statements of a few shapes
 * whose planning is a large part of their cost; every distinct text stays prepared on every
 * connection for its life. PGlite, a transaction: `queryRows`.
 */
export async function queryRowsNamed<T>(db: Db, query: SQL): Promise<T[]> {
  const run = namedRunners.get(db);
  if (!run) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `canto_${crypto.createHash('sha1').update(text).digest('base64url')}`;
  return (await run(name, text, params)) as T[];
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
