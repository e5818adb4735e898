/**
 * The API document as committed in docs/openapi.json (docs/decisions/0025): the one the app
 * serves at /api/docs/json, built the way the tests build the app (a copy of the migrated
 * PGlite template, fixed settings), with paths and methods in sorted order so the file does
 * not change with the order modules register, and nothing of the machine it was made on.
 * `npm run openapi` writes it; tests/integration/openapi-document.test.ts fails while the
 * committed file differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { openPglite } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { ensurePgliteTemplate, migrationsHash, tmpRoot } from '../tests/helpers/db-templates.ts';

export const OPENAPI_FILE = path.resolve('docs/openapi.json');

/** What stands for a machine's own values in the document. */
const PUBLIC_URL = 'https://canto.example';
const DATA_DIR = '<DATA_DIR>';

export async function buildOpenApiJson(): Promise<string> {
  const template = await ensurePgliteTemplate(migrationsHash());
  fs.mkdirSync(tmpRoot, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(tmpRoot, 'openapi-'));
  try {
    fs.cpSync(path.join(template, 'db'), path.join(dataDir, 'db'), { recursive: true });
    const database = await openPglite(path.join(dataDir, 'db'));
    const env = parseEnv({
      DATA_DIR: dataDir,
      SECRET_KEY: 'openapi-document-secret-key-0123456789',
      LOG_LEVEL: 'silent',
      DEMO: '0',
    });
    const { app } = await buildApp({ env, database, logger: false, webDir: dataDir });
    try {
      await app.ready();
      const machine: [string, string][] = [
        [env.publicUrl, PUBLIC_URL],
        [dataDir, DATA_DIR],
      ];
      return `${JSON.stringify(sortOperations(withoutMachine(app.swagger(), machine)), null, 2)}\n`;
    } finally {
      await app.close();
      await database.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function withoutMachine(value: unknown, machine: [string, string][]): unknown {
  if (typeof value === 'string')
    return machine.reduce((text, [mine, stand]) => text.replaceAll(mine, stand), value);
  if (Array.isArray(value)) return value.map((item) => withoutMachine(item, machine));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withoutMachine(item, machine)]),
    );
  return value;
}

const sortedKeys = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Paths, each path's methods and the shared schemas in sorted order. */
function sortOperations(doc: unknown): unknown {
  const {
    paths = {},
    components,
    ...rest
  } = doc as {
    paths?: Record<string, Record<string, unknown>>;
    components?: { schemas?: Record<string, unknown> };
  };
  const sortedPaths = Object.fromEntries(
    Object.entries(sortedKeys(paths)).map(([url, methods]) => [
      url,
      sortedKeys(methods as Record<string, unknown>),
    ]),
  );
  return {
    ...rest,
    ...(components
      ? {
          components: {
            ...components,
            ...(components.schemas ? { schemas: sortedKeys(components.schemas) } : {}),
          },
        }
      : {}),
    paths: sortedPaths,
  };
}
