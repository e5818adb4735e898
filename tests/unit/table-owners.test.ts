/**
 * Data with owners (docs/decisions/0024): every write to a table in src/server is made by the
 * table's owner (src/server/db/table-owners.ts) or is one of the listed shared writes. Writes
 * are read from the sources with the TypeScript parser: Drizzle's insert/update/delete on a
 * schema table, and raw SQL `insert into` / `update` / `delete from` in any string or
 * template (sql`…`). Reads of other modules' tables are not looked at: they are allowed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema/index.ts';
import { sharedWrites, tableOwners, type SharedWrite } from '../../src/server/db/table-owners.ts';

const SERVER = path.resolve('src/server');

/** Schema export name → table name (`userRoles` → `user_roles`). */
const tableOfIdentifier = new Map(
  Object.entries(schema)
    .filter(([, value]) => is(value, PgTable))
    .map(([name, table]) => [name, getTableName(table as PgTable)]),
);
const tableNames = new Set(tableOfIdentifier.values());

type Write = {
  /** Relative to src/server. */
  file: string;
  writer: string;
  /** null: a table the code holds as a value, which the check cannot name. */
  table: string | null;
  /** The call or the SQL statement, whitespace collapsed. */
  text: string;
};

/** `modules/<name>/…` → name; `<folder>/…` → folder; app.ts, bootstrap.ts… → host. */
function writerOf(file: string): string {
  const [first, second] = file.split('/');
  if (first === 'modules') return second!;
  return file.includes('/') ? first! : 'host';
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The statement that starts at `from` in `sql`: up to its end or a closing parenthesis. */
function statementAt(sql: string, from: number): string {
  let depth = 0;
  for (let i = from; i < sql.length; i++) {
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')' && --depth < 0) return sql.slice(from, i);
    else if (sql[i] === ';' && depth === 0) return sql.slice(from, i);
  }
  return sql.slice(from);
}

const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+("?[a-z_]+"?|\$\{[^}]*\})/gi;

/** Every write in one source file. */
function writesIn(file: string, source: string): Write[] {
  const writer = writerOf(file);
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const writes: Write[] = [];

  const sqlWrites = (sql: string) => {
    for (const m of sql.matchAll(SQL_WRITE)) {
      const target = m[2]!.replace(/"/g, '');
      const interpolated = target.startsWith('${') ? target.slice(2, -1).trim() : null;
      const table = interpolated
        ? (tableOfIdentifier.get(interpolated) ?? null)
        : tableNames.has(target.toLowerCase())
          ? target.toLowerCase()
          : undefined;
      // A word that is no table ('update set', 'for update of'): not a write.
      if (table === undefined) continue;
      writes.push({ file, writer, table, text: squash(statementAt(sql, m.index)) });
    }
  };

  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['insert', 'update', 'delete'].includes(node.expression.name.text) &&
      node.arguments.length > 0
    ) {
      const target = node.arguments[0]!.getText(sourceFile);
      const table = tableOfIdentifier.get(target);
      const onDatabase = /\b(db|tx)\b/i.test(node.expression.expression.getText(sourceFile));
      // Map#delete, Hash#update and the like are not writes; the database's are.
      if (table || onDatabase)
        writes.push({
          file,
          writer,
          table: table ?? null,
          text: squash(node.getText(sourceFile)).slice(0, 120),
        });
    }
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) sqlWrites(node.text);
    if (ts.isTemplateExpression(node)) {
      sqlWrites(
        node.head.text +
          node.templateSpans
            .map((span) => `\${${span.expression.getText(sourceFile)}}${span.literal.text}`)
            .join(''),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return writes;
}

/** Why a write is not allowed, or null when it is. */
function problemWith(write: Write, shared: readonly SharedWrite[] = sharedWrites): string | null {
  if (write.table !== null && tableOwners[write.table] === write.writer) return null;
  const allowed = shared.some(
    (s) =>
      s.writer === write.writer &&
      (s.file === undefined || s.file === write.file) &&
      (write.table === null ? s.file !== undefined : s.tables.includes(write.table)) &&
      (s.statement === undefined || s.statement.test(write.text)),
  );
  if (allowed) return null;
  return write.table === null
    ? `${write.file}: ${write.writer} writes a table it holds as a value: ${write.text}`
    : `${write.file}: ${write.writer} writes ${write.table}, owned by ${tableOwners[write.table] ?? 'nobody yet'}: ${write.text}`;
}

function serverFiles(dir = SERVER): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : serverFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const writes = serverFiles().flatMap((full) =>
  writesIn(path.relative(SERVER, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8')),
);

describe('each table is written by its owner', () => {
  it('names an owner for every table of the schema, and no table that is not there', () => {
    expect(Object.keys(tableOwners).sort()).toEqual([...tableNames].sort());
  });

  it('names owners and writers that exist', () => {
    const exists = (writer: string) =>
      fs.existsSync(path.join(SERVER, 'modules', writer)) ||
      fs.existsSync(path.join(SERVER, writer));
    for (const owner of Object.values(tableOwners))
      if (owner) expect(exists(owner), owner).toBe(true);
    for (const s of sharedWrites) {
      expect(exists(s.writer), s.writer).toBe(true);
      for (const table of s.tables) expect(tableNames.has(table), table).toBe(true);
      if (s.file) expect(fs.existsSync(path.join(SERVER, s.file)), s.file).toBe(true);
    }
  });

  it('finds the writes it checks', () => {
    // Sanity: the reader sees Drizzle's and raw SQL's writes of several owners.
    const seen = new Set(writes.map((w) => `${w.writer}:${w.table}`));
    for (const expected of [
      'roles:user_roles',
      'auth:users',
      'social:profiles',
      'listening:stream_analytics',
      'jobs:jobs',
      'security:rate_limits',
    ])
      expect(seen, expected).toContain(expected);
  });

  it('finds no write by code that does not own the table', () => {
    expect(writes.map((w) => problemWith(w)).filter((p) => p !== null)).toEqual([]);
  });

  it('uses every shared write it lists (a stale one goes)', () => {
    for (const s of sharedWrites) {
      const used = writes.some(
        (w) =>
          w.writer === s.writer &&
          (w.table === null || (tableOwners[w.table] !== w.writer && s.tables.includes(w.table))) &&
          problemWith(w, [s]) === null,
      );
      expect(used, s.why).toBe(true);
    }
  });
});

describe('the check fails on a foreign write', () => {
  const check = (file: string, source: string) =>
    writesIn(file, source)
      .map((w) => problemWith(w))
      .filter((p) => p !== null);

  it.each([
    [
      "Drizzle's insert into another module's table",
      'modules/auth/users.repository.ts',
      'await tx.insert(userRoles).values({ userId, role });',
    ],
    [
      "Drizzle's delete of another module's table",
      'modules/artist-approval/artist-requests.repository.ts',
      'await db.delete(userRoles).where(x);',
    ],
    [
      'raw SQL into another module’s table',
      'modules/auth/users.repository.ts',
      'await db.execute(sql`insert into profiles (user_id) values (${id})`);',
    ],
    [
      'a shared write other than the listed statement',
      'modules/listening/plays.repository.ts',
      'await db.execute(sql`update songs set title = ${t} where id = ${id}`);',
    ],
    [
      'a table held as a value, outside the listed file',
      'modules/library/playlists.repository.ts',
      'await tx.delete(c.table).where(same);',
    ],
    [
      'a table no module owns yet',
      'modules/premium/subscriptions.repository.ts',
      'await db.insert(artistRevenue).values(row);',
    ],
  ])('%s', (_, file, source) => {
    expect(check(file, source)).toHaveLength(1);
  });

  it.each([
    ['its own table', 'modules/roles/roles.repository.ts', 'await tx.insert(userRoles).values(v);'],
    [
      'a read of another table',
      'modules/social/profiles.repository.ts',
      'db.select().from(songs);',
    ],
    ['a Map', 'modules/songs/search-cache.ts', 'entries.delete(key); hash.update(value);'],
    [
      'the listed shared statement',
      'modules/listening/plays.repository.ts',
      'sql`with locked as (select 1), folded as ( update songs set play_count = play_count + locked.plays from locked where songs.id = locked.id returning 1 ) delete from play_count_deltas`',
    ],
  ])('and passes %s', (_, file, source) => {
    expect(check(file, source)).toEqual([]);
  });
});
