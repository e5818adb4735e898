import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { createRolesRepository } from '../../src/server/modules/roles/roles.repository.ts';
import {
  adminDeps,
  ExitCode,
  parseAdminArgs,
  runAdminCommand,
} from '../../src/server/cli/admin.ts';
import { asStored, monthRows, referenceRevenue, seedMonth } from './revenue-helpers.ts';

async function addUser(t: TestDatabase, email: string): Promise<string> {
  const result = (await t.database.db.execute(
    sql`insert into users (email, password_hash) values (${email}, 'x') returning id`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows[0]!.id;
}

describe('admin CLI arguments', () => {
  it.each([
    [[], 'No command given.'],
    [['promote', 'a@b.c'], 'Unknown command "promote".'],
    [['grant', 'a@b.c'], 'grant needs an email and a role.'],
    [
      ['grant', 'a@b.c', 'root'],
      'Unknown role "root"; expected one of artist, admin, pending_artist.',
    ],
    [['list', 'a@b.c', 'admin'], 'list takes at most an email.'],
    [['revoke', 'a@b.c', 'admin', 'extra'], 'Unexpected arguments: extra'],
    [['revenue'], 'revenue takes one month, YYYY-MM.'],
    [['revenue', '2026-10', 'x'], 'revenue takes one month, YYYY-MM.'],
    [['revenue', '2026-13'], 'Month must be written YYYY-MM'],
    [['revenue', '2026-1'], 'Month must be written YYYY-MM'],
    [['revenue', 'October'], 'Month must be written YYYY-MM'],
  ])('%j is a usage error', (args, problem) => {
    expect(parseAdminArgs(args)).toEqual({ kind: 'usage-error', problem });
  });

  it('normalises the email the way accounts store it', () => {
    expect(parseAdminArgs(['grant', '  Ada@Example.TEST ', 'admin'])).toEqual({
      kind: 'grant',
      email: 'ada@example.test',
      role: 'admin',
    });
  });
});

describe.each(dbKinds)('admin CLI commands on %s', (kind) => {
  let t: TestDatabase;
  let out: string[];
  let err: string[];
  const run = (...args: string[]) => {
    out = [];
    err = [];
    return runAdminCommand(
      parseAdminArgs(args),
      adminDeps(t.database, { out: (l) => out.push(l), err: (l) => err.push(l) }),
    );
  };

  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('grants, lists and revokes a role', async () => {
    const id = await addUser(t, 'ada@example.test');
    const roles = createRolesRepository(t.database.db);

    expect(await run('grant', 'ADA@example.test', 'admin')).toBe(ExitCode.ok);
    expect(out).toEqual(['Granted admin to ada@example.test.']);
    expect(await roles.rolesOf(id)).toEqual(['admin']);

    // Granting twice is harmless.
    expect(await run('grant', 'ada@example.test', 'admin')).toBe(ExitCode.ok);
    expect(await run('grant', 'ada@example.test', 'artist')).toBe(ExitCode.ok);
    expect(await run('list', 'ada@example.test')).toBe(ExitCode.ok);
    expect(out).toEqual(['ada@example.test\tadmin, artist']);
    expect(await run('list')).toBe(ExitCode.ok);
    expect(out).toEqual(['ada@example.test\tadmin, artist']);

    expect(await run('revoke', 'ada@example.test', 'admin')).toBe(ExitCode.ok);
    expect(out).toEqual(['Revoked admin from ada@example.test.']);
    expect(await roles.rolesOf(id)).toEqual(['artist']);
    expect(await run('revoke', 'ada@example.test', 'admin')).toBe(ExitCode.ok);
    expect(out).toEqual(['ada@example.test did not have admin; nothing changed.']);
  });

  it('calculates a past month exactly as the model says, and refuses one not begun', async () => {
    const spec = {
      month: '2026-10',
      artists: 2,
      listeners: [
        {
          premium: true,
          plays: [
            { artist: 0, ms: 2000 },
            { artist: 1, ms: 1000, episode: true },
          ],
        },
        { premium: false, plays: [{ artist: 1, ms: 5 }] },
      ],
      impressions: [{ artist: 0, count: 7 }],
    };
    const seeded = await seedMonth(t.database.db, spec);
    expect(await run('revenue', '2026-10')).toBe(ExitCode.ok);
    expect(err).toEqual([]);
    expect(out).toEqual(['Revenue calculated for 2 artists in 2026-10; total premium pool $9.99.']);
    expect(await monthRows(t.database.db, '2026-10')).toEqual(
      asStored(referenceRevenue(spec, seeded).rows),
    );
    expect(await run('revenue', '2999-01')).toBe(ExitCode.failed);
    expect(err).toEqual(['That month has not begun yet']);
    expect(await monthRows(t.database.db, '2999-01')).toEqual([]);
  });

  it('exits 1 with a message for an unknown email and changes nothing', async () => {
    const count = async () =>
      (
        (await t.database.db.execute(
          sql`select count(*)::int as n from user_roles`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;
    const before = await count();
    expect(await run('grant', 'nobody@example.test', 'admin')).toBe(ExitCode.failed);
    expect(err).toEqual(['No account with email nobody@example.test.']);
    expect(await run('list', 'nobody@example.test')).toBe(ExitCode.failed);
    expect(await count()).toBe(before);
  });
});

describe('npm run admin (spawned)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('pglite');
    await addUser(t, 'root@example.test');
    // PGlite allows one process per data directory: hand it to the child.
    await t.database.close();
  });
  afterAll(async () => {
    await t?.drop();
  });

  const spawnCli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(
        path.resolve('node_modules/.bin/tsx'),
        ['src/server/cli/admin.ts', ...args],
        {
          env: { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('grants a role in the data directory and reports exit codes', async () => {
    const granted = await spawnCli(['grant', 'root@example.test', 'admin']);
    expect(granted.stderr).toBe('');
    expect(granted).toMatchObject({ code: 0, stdout: 'Granted admin to root@example.test.\n' });

    const unknown = await spawnCli(['grant', 'ghost@example.test', 'admin']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account with email ghost@example.test.');

    const revenue = await spawnCli(['revenue', '2026-10']);
    expect(revenue.stderr).toBe('');
    expect(revenue).toMatchObject({
      code: 0,
      stdout: 'Revenue calculated for 0 artists in 2026-10; total premium pool $0.00.\n',
    });

    const usage = await spawnCli([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run admin -- <command>');

    const db = await openPglite(path.join(t.dataDir, 'db'));
    try {
      const rows = await db.db.execute(
        sql`select r.role from user_roles r join users u on u.id = r.user_id where u.email = 'root@example.test'`,
      );
      expect((rows as unknown as { rows: { role: string }[] }).rows).toEqual([{ role: 'admin' }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
