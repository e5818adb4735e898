import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { adminUrl, tmpRoot, withDatabase } from './db-templates.ts';

export type DbKind = 'pglite' | 'postgres';

/** Both engines when the PostgreSQL server is reachable; the PGlite one always. */
export const dbKinds: DbKind[] = inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];

export type TestDatabase = {
  database: Database;
  kind: DbKind;
  dataDir: string;
  /** The PostgreSQL database's URL, for a child process (undefined for PGlite). */
  url?: string;
  drop(): Promise<void>;
};

/** A fresh, migrated database of the given kind, private to the caller. */
export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const id = crypto.randomBytes(6).toString('hex');
  const dataDir = path.join(tmpRoot, `test-${id}`);
  fs.mkdirSync(dataDir, { recursive: true });
  if (kind === 'pglite') {
    fs.cpSync(path.join(inject('pgliteTemplate'), 'db'), path.join(dataDir, 'db'), {
      recursive: true,
    });
    const database = await openPglite(path.join(dataDir, 'db'));
    return {
      database,
      kind,
      dataDir,
      async drop() {
        await database.close().catch(() => {});
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const template = inject('postgresTemplate');
  if (!template) throw new Error('PostgreSQL is not reachable');
  const name = `canto_test_${id}`;
  await adminQuery(`create database "${name}" template "${template}"`);
  const url = withDatabase(adminUrl, name);
  const database = await openPostgres(url, 10);
  return {
    database,
    kind,
    dataDir,
    url,
    async drop() {
      await database.close().catch(() => {});
      await adminQuery(`drop database if exists "${name}" with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
