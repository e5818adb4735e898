import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder, openPglite, openPostgres } from '../../src/server/db/client.ts';

// Migrated templates are built once per migrations version and copied per test file:
// a fresh PGlite costs seconds, a copy well under one; a PostgreSQL TEMPLATE clone is instant.

export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function migrationsHash(): string {
  const h = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else h.update(name).update(fs.readFileSync(p));
    }
  };
  walk(migrationsFolder);
  return h.digest('hex').slice(0, 12);
}

export const tmpRoot = path.resolve('.tmp');

export async function ensurePgliteTemplate(hash: string): Promise<string> {
  const dir = path.join(tmpRoot, `pglite-template-${hash}`);
  if (fs.existsSync(path.join(dir, 'ready'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  const database = await openPglite(path.join(dir, 'db'));
  await database.migrate();
  await database.close();
  fs.writeFileSync(path.join(dir, 'ready'), hash);
  return dir;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** How long another migration version's template is kept (see ensurePostgresTemplate). */
const TEMPLATE_KEEP_MS = 24 * 3600_000;

export async function ensurePostgresTemplate(hash: string): Promise<string> {
  const name = `canto_tpl_${hash}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return name;
    // Templates of other migration versions are dropped so they do not pile up, but only
    // once they are a day old: another checkout's test run (a CI rehearsal beside a working
    // tree, two branches) may be cloning from its own version right now.
    const old = await admin.query<{ datname: string; made: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as made
       from pg_database where datname like 'canto_tpl_%' and datname <> $1`,
      [name],
    );
    for (const row of old.rows) {
      const made = Number(row.made?.replace(/^canto-template-made:/, ''));
      if (Number.isFinite(made) && Date.now() - made < TEMPLATE_KEEP_MS) continue;
      await admin.query(`drop database if exists "${row.datname}" with (force)`);
    }
    const building = `${name}_building`;
    await admin.query(`drop database if exists "${building}" with (force)`);
    await admin.query(`create database "${building}"`);
    await admin.query(`comment on database "${building}" is 'canto-template-made:${Date.now()}'`);
    const database = await openPostgres(withDatabase(adminUrl, building), 1);
    await database.migrate();
    await database.close();
    await admin.query(`alter database "${building}" rename to "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}
