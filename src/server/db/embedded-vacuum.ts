import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { queryRows } from './sql-results.ts';
import type { Log } from '../log.ts';

/**
 * PostgreSQL's autovacuum for the embedded engine, which has none: PGlite runs no background
 * processes, so the dead rows of every update (play counts, listening totals, sessions, jobs)
 * were never reclaimed, statistics went stale, and no page was ever marked all-visible, which
 * index-only scans need (the covering sort indexes of migration 0014). Every `intervalMs` a
 * pass reads the table statistics and vacuums or analyzes the tables that PostgreSQL's
 * default autovacuum settings would, one table at a time: PGlite serves one statement at a
 * time, so requests wait only for one table's vacuum, never the whole database's. A server
 * runs its own autovacuum; there this does nothing.
 */
export type EmbeddedVacuum = {
  start(): void;
  /** Stops the timer and waits for a pass in progress (before the database closes). */
  stop(): Promise<void>;
  /** One pass now: the tables vacuumed or analyzed, in order. */
  runOnce(): Promise<Array<{ table: string; vacuum: boolean }>>;
};

export type EmbeddedVacuumOptions = {
  database: Database;
  log: Log;
  /** Between passes; 10 minutes, autovacuum's naptime scaled to a single-process app. */
  intervalMs?: number;
  /** Before the first pass, so that start-up (migrations, the demo seed) is not slowed. */
  firstDelayMs?: number;
};

/**
 * PostgreSQL's defaults (autovacuum_vacuum_threshold 50 + scale 0.2 of the rows,
 * autovacuum_vacuum_insert_threshold 1000 + 0.2, autovacuum_analyze_threshold 50 + 0.1): the
 * insert rule is what marks a table that is only ever inserted into all-visible.
 */
const dueTables = sql`
  select t.table, t.vacuum from (
    select s.relname as table, s.n_dead_tup + s.n_ins_since_vacuum + s.n_mod_since_analyze as changes,
      (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
        or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) as vacuum,
      s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as stale
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public') t
  where t.vacuum or t.stale
  order by t.changes desc, t.table`;

export function createEmbeddedVacuum(options: EmbeddedVacuumOptions): EmbeddedVacuum {
  const { database, log } = options;
  const intervalMs = options.intervalMs ?? 10 * 60_000;
  const firstDelayMs = options.firstDelayMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function runOnce() {
    const done: Array<{ table: string; vacuum: boolean }> = [];
    const due = await queryRows<{ table: string; vacuum: boolean }>(database.db, dueTables);
    for (const { table, vacuum } of due) {
      if (stopped) break;
      const name = sql.identifier(table);
      const started = performance.now();
      await database.db.execute(
        vacuum ? sql`vacuum (analyze) public.${name}` : sql`analyze public.${name}`,
      );
      done.push({ table, vacuum });
      log.info(
        { table, vacuum, ms: Math.round(performance.now() - started) },
        vacuum ? 'table vacuumed' : 'table analyzed',
      );
    }
    return done;
  }

  const pass = () => {
    running = runOnce()
      .catch((error: unknown) => log.warn({ err: error }, 'embedded vacuum pass failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(pass, intervalMs).unref();
      });
  };

  return {
    start() {
      if (database.kind !== 'pglite' || timer || stopped) return;
      timer = setTimeout(pass, firstDelayMs).unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    runOnce,
  };
}
