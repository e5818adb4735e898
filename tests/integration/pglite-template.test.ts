import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, pgliteTemplateFits } from '../../src/server/db/client.ts';
import { makePgliteTemplate } from '../../src/server/db/make-pglite-template.ts';

// The production build makes an empty migrated data directory once; a new DATA_DIR copies it
// instead of running PGlite's initdb (docs/decisions/0009).
describe('the PGlite template', () => {
  let root: string;
  let template: string;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-pglite-template-'));
    template = path.join(root, 'template');
    expect(await makePgliteTemplate(template)).toBe('made');
  }, 120_000);
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  const userCount = async (dir: string) => {
    const database = await openPglite(dir, { template });
    try {
      await database.migrate();
      const rows = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from users`,
      );
      return (rows as unknown as { rows: { n: number }[] }).rows[0]!.n;
    } finally {
      await database.close();
    }
  };

  it('is made once per PGlite version and migrations', async () => {
    expect(pgliteTemplateFits(template)).toBe(true);
    expect(await makePgliteTemplate(template)).toBe('current');
    expect(fs.readdirSync(root)).toEqual(['template']); // no partial copy left behind
  });

  it('gives a new data directory the migrated schema, and is not changed by it', async () => {
    const dir = path.join(root, 'data-a', 'db');
    const before = fs.readdirSync(path.join(template, 'db'), { recursive: true }).sort();
    const database = await openPglite(dir, { template });
    try {
      expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
      await database.migrate();
      await database.db.execute(
        sql`insert into users (email, password_hash) values ('t@example.test', 'x')`,
      );
    } finally {
      await database.close();
    }
    expect(await userCount(dir)).toBe(1);
    expect(await userCount(path.join(root, 'data-b', 'db'))).toBe(0);
    expect(fs.readdirSync(path.join(template, 'db'), { recursive: true }).sort()).toEqual(before);
  });

  it('never touches a data directory that already has content', async () => {
    const dir = path.join(root, 'data-c', 'db');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'not a database');
    // PGlite itself then runs initdb around the file; the template is not copied over it.
    const database = await openPglite(dir, { template });
    await database.close();
    expect(fs.readFileSync(path.join(dir, 'keep.txt'), 'utf8')).toBe('not a database');
    expect(fs.readdirSync(path.dirname(dir))).toEqual(['db']);
  }, 120_000);

  it('is ignored once it no longer fits (another PGlite version or other migrations)', () => {
    const stamp = path.join(template, 'template.json');
    const original = fs.readFileSync(stamp, 'utf8');
    try {
      fs.writeFileSync(stamp, JSON.stringify({ key: 'made-by-another-version' }));
      expect(pgliteTemplateFits(template)).toBe(false);
    } finally {
      fs.writeFileSync(stamp, original);
    }
  });
});
