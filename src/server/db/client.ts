import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

// Each engine's driver is imported only when that engine is opened: a PGlite process never
// loads node-postgres, a PostgreSQL one never loads the WASM build (docs/decisions/0009).

export type Schema = typeof schema;
/** The one database type the repositories see, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * The committed SQL migrations. Beside this file in the sources (src/server/db/migrations);
 * the production build (scripts/build.mjs) bundles this file into dist/server/ and copies
 * them to dist/server/migrations. The sources' folder is the fallback for a bundle that runs
 * without its copy.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsFolder = findMigrations(here);

function findMigrations(here: string): string {
  const candidates = [
    path.join(here, 'migrations'),
    path.resolve(here, '../../src/server/db/migrations'),
  ];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'meta', '_journal.json')));
  // The first candidate keeps drizzle's own "no migrations" error naming a sensible path.
  return found ?? candidates[0]!;
}

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * LISTEN on a channel; returns an unsubscribe function. On a server, every channel shares
   * one connection outside the pool, re-established when lost; `onRestored` runs then, as
   * anything notified meanwhile was missed (PGlite's connection is in-process: never lost).
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onRestored?: () => void,
  ): Promise<() => Promise<void>>;
  /** Applies the committed migrations; on a server, one process at a time (advisory lock). */
  migrate(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = { databaseUrl?: string; dataDir: string; poolSize?: number };

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.poolSize)
    : openPglite(path.join(opts.dataDir, 'db'));
}

/**
 * PostgreSQL settings for the embedded engine, on top of PGlite's own start parameters.
 * shared_buffers defaults to 128MB, sized for a server with many backends, and PGlite zeroes
 * all of it inside this process at start: it was the largest part of the idle RSS. PGlite
 * has one backend, and the pages it reads also stay in the OS page cache, so a smaller pool
 * costs little; docs/decisions/0009 has the figures, search at 200k songs included.
 */
export const pgliteSettings: Readonly<Record<string, string>> = { shared_buffers: '32MB' };

/**
 * An empty, migrated PGlite data directory that the production build makes once
 * (make-pglite-template.ts, run by scripts/build.mjs) beside the bundle. A new DATA_DIR is
 * a copy of it: PGlite's initdb costs ~5 s of CPU on every fresh directory, a copy under 1 s.
 * The sources have none, so tests and `npm run dev` run initdb as before.
 */
export const pgliteTemplate = {
  dir: path.join(here, 'pglite-template'),
  /** Made by this PGlite version from these migrations; any other template is ignored. */
  key(): string {
    const h = crypto.createHash('sha256');
    const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    h.update(fs.readFileSync(path.resolve(path.dirname(pglite), '..', 'package.json')));
    const walk = (dir: string) => {
      for (const name of fs.readdirSync(dir).sort()) {
        const file = path.join(dir, name);
        if (fs.statSync(file).isDirectory()) walk(file);
        else h.update(name).update(fs.readFileSync(file));
      }
    };
    walk(migrationsFolder);
    return h.digest('hex');
  },
};

/** True when `template` holds a template made by this PGlite from these migrations. */
export function pgliteTemplateFits(template: string): boolean {
  const stamp = path.join(template, 'template.json');
  if (!fs.existsSync(stamp)) return false;
  const { key } = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { key?: string };
  return key === pgliteTemplate.key();
}

/** Fills a new data directory from the template; false when there is none that fits. */
function copyPgliteTemplate(template: string, dir: string): boolean {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) return false;
  if (!pgliteTemplateFits(template)) return false;
  // Copied beside the target and renamed, so an interrupted copy never looks like a database.
  const partial = `${dir}.partial-${process.pid}`;
  // (fs.promises.cp measured slower here: it competes with the module loader for libuv's threads.)
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(path.join(template, 'db'), partial, { recursive: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return true;
}

/**
 * Opens (creating if needed) an embedded PGlite data directory. A new one starts as a copy of
 * `template` (default: the build's, pgliteTemplate.dir) when that fits.
 */
export async function openPglite(
  dir: string,
  options: { template?: string } = {},
): Promise<Database> {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  copyPgliteTemplate(options.template ?? pgliteTemplate.dir, dir);
  const settings = Object.entries(pgliteSettings).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const client: PGlite = await PGlite.create(dir, {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...settings],
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    listen: (channel, onPayload) => client.listen(channel, onPayload),
    migrate: () => migrate(db as never, { migrationsFolder }),
    close: () => client.close(),
  };
}

const MIGRATION_LOCK = 7_263_540_119;

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  // No JIT: its compile (~100–300 ms) is paid by any query whose estimated cost passes
  // jit_above_cost, such as search's gated full-scan branch that usually never runs
  // (ADR 0006); this app's queries are short. No parallel workers, for the same reason:
  // a Gather starts its workers even when a one-time filter then skips its scan, two new
  // processes per search that cost 5–7 ms (search throughput +20 % without them, ADR 0011).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: '-c jit=off -c max_parallel_workers_per_gather=0',
  });
  // Idle-client errors (server restart) must not crash the process; queries will report them.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listener = createPgListener(pg, url);
  return {
    db,
    kind: 'postgres',
    listen: listener.listen,
    async migrate() {
      // The lock must be held on one connection for the whole run.
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(conn, { schema }), { migrationsFolder });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        conn.release();
      }
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

type PgModule = typeof import('pg').default;
type Subscriber = { onPayload: (payload: string) => void; onRestored?: () => void };

const LISTENER_BACKOFF_MS = { base: 250, max: 30_000 };

/**
 * LISTEN/NOTIFY on a PostgreSQL server: one dedicated connection outside the pool for every
 * channel, so a listener never holds one of the pool's clients (nor is handed back to it in
 * LISTEN state). When the connection is lost (server restart, network), it reconnects with
 * backoff, LISTENs again and tells each subscriber (`onRestored`).
 */
function createPgListener(pg: PgModule, url: string) {
  const channels = new Map<string, Set<Subscriber>>();
  let client: InstanceType<PgModule['Client']> | null = null;
  let connecting: Promise<InstanceType<PgModule['Client']>> | null = null;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;
  const listenSql = (channel: string) => `LISTEN ${pg.escapeIdentifier(channel)}`;

  function connect() {
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: url,
        application_name: 'canto-listen',
        // A dead peer (no RST after a network loss) is noticed and the connection replaced.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      c.on('error', () => {}); // 'end' follows, and reconnects
      c.on('end', () => lost(c));
      c.on('notification', (msg) => {
        for (const sub of channels.get(msg.channel) ?? []) sub.onPayload(msg.payload ?? '');
      });
      try {
        await c.connect();
        for (const channel of channels.keys()) await c.query(listenSql(channel));
      } catch (error) {
        await c.end().catch(() => {});
        throw error;
      }
      if (closed || channels.size === 0) {
        // Closed, or every subscriber left while this connected: nothing to listen for.
        await c.end().catch(() => {});
        throw new Error(closed ? 'the database is closed' : 'nobody listens');
      }
      client = c;
      failures = 0;
      return c;
    })().finally(() => (connecting = null));
    return connecting;
  }

  function lost(c: InstanceType<PgModule['Client']>) {
    if (client !== c) return;
    client = null;
    if (!closed && channels.size > 0) reconnectLater();
  }

  function reconnectLater() {
    clearTimeout(retry);
    const delay = Math.min(LISTENER_BACKOFF_MS.max, LISTENER_BACKOFF_MS.base * 2 ** failures);
    retry = setTimeout(() => {
      connect().then(
        () => {
          for (const subs of channels.values()) for (const sub of subs) sub.onRestored?.();
        },
        () => {
          failures += 1;
          if (!closed && channels.size > 0) reconnectLater();
        },
      );
    }, delay);
    retry.unref();
  }

  return {
    async listen(
      channel: string,
      onPayload: (payload: string) => void,
      onRestored?: () => void,
    ): Promise<() => Promise<void>> {
      const sub: Subscriber = { onPayload, onRestored };
      const subs = channels.get(channel) ?? new Set<Subscriber>();
      channels.set(channel, subs);
      subs.add(sub);
      const drop = () => {
        subs.delete(sub);
        if (subs.size > 0) return false;
        channels.delete(channel);
        return true;
      };
      try {
        // LISTEN is idempotent: also right when a connect in flight has already listened.
        await (client ?? (await connect())).query(listenSql(channel));
      } catch (error) {
        drop();
        throw error;
      }
      return async () => {
        if (!drop()) return;
        const c = client;
        if (channels.size === 0) {
          // Nobody listens any more: the connection goes too.
          client = null;
          clearTimeout(retry);
          await c?.end().catch(() => {});
        } else {
          await c?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client ?? (await connecting?.catch(() => null)) ?? null;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
