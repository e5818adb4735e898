/**
 * The dependency rule of ARCHITECTURE.md is enforced by ESLint (eslint.config.js). These
 * cases lint one import at a made-up path and expect the rule to fire exactly where the
 * architecture forbids the import, and stay quiet where it allows it.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(filePath: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import '${specifier}';\n`, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const cases: { file: string; imports: string; allowed: boolean; because: string }[] = [
  {
    file: 'src/server/modules/songs/songs.service.ts',
    imports: '../auth/users.repository.ts',
    allowed: false,
    because: "a module reaching into another module's repository",
  },
  {
    file: 'src/server/modules/songs/songs.service.ts',
    imports: '../auth/auth.service.ts',
    allowed: false,
    because: "a module reaching into another module's service",
  },
  {
    file: 'src/server/modules/songs/songs.service.ts',
    imports: '../auth/auth.module.ts',
    allowed: true,
    because: "another module's public API",
  },
  {
    file: 'src/server/modules/songs/songs.routes.ts',
    imports: '../../http/access-policy.ts',
    allowed: true,
    because: 'shared infrastructure beside the modules',
  },
  {
    file: 'src/server/modules/songs/songs.routes.ts',
    imports: './songs.service.ts',
    allowed: true,
    because: 'a file of the same module',
  },
  {
    file: 'src/server/modules/songs/songs.service.ts',
    imports: 'drizzle-orm',
    allowed: false,
    because: 'a service using the ORM',
  },
  {
    file: 'src/server/modules/songs/songs.routes.ts',
    imports: 'drizzle-orm/pg-core',
    allowed: false,
    because: 'a route using the ORM',
  },
  {
    file: 'src/server/modules/songs/songs.repository.ts',
    imports: 'drizzle-orm',
    allowed: true,
    because: 'repositories are the ORM users',
  },
  {
    file: 'src/server/modules/songs/songs.repository.ts',
    imports: '../auth/users.repository.ts',
    allowed: false,
    because: "a repository reaching into another module's repository",
  },
  {
    file: 'src/server/db/client.ts',
    imports: 'drizzle-orm/pglite',
    allowed: true,
    because: 'the database layer',
  },
  {
    file: 'src/server/http/access-policy.ts',
    imports: 'drizzle-orm',
    allowed: false,
    because: 'infrastructure that is not the database layer',
  },
  {
    file: 'src/server/app.ts',
    imports: './modules/songs/songs.service.ts',
    allowed: false,
    because: 'the composition root wiring a module from its internals',
  },
  {
    file: 'src/server/app.ts',
    imports: './modules/songs/songs.module.ts',
    allowed: true,
    because: 'the composition root using a module',
  },
  {
    file: 'src/server/cli/admin.ts',
    imports: '../modules/roles/roles.repository.ts',
    allowed: false,
    because: "an operator command reaching into a module's repository",
  },
  {
    file: 'src/server/app.ts',
    imports: '../web/app.tsx',
    allowed: false,
    because: 'the server importing the web app',
  },
  {
    file: 'src/web/features/catalogue/home-page.tsx',
    imports: '../../../server/app.ts',
    allowed: false,
    because: 'the web app importing the server',
  },
  {
    file: 'src/web/features/catalogue/home-page.tsx',
    imports: '../../../contracts/songs.contract.ts',
    allowed: true,
    because: 'the web app using the shared contracts',
  },
  {
    file: 'src/core/player/player-machine.ts',
    imports: '../../contracts/songs.contract.ts',
    allowed: false,
    because: 'core importing the app',
  },
  {
    file: 'src/core/clock.ts',
    imports: 'node:fs',
    allowed: false,
    because: 'core doing I/O',
  },
  {
    file: 'src/contracts/songs.contract.ts',
    imports: '../server/env.ts',
    allowed: false,
    because: 'contracts importing the server',
  },
  {
    file: 'src/server/modules/songs/songs.module.ts',
    imports: '../../env.ts',
    allowed: false,
    because: 'a module reading Env instead of taking its settings',
  },
  {
    file: 'src/server/modules/songs/songs.repository.ts',
    imports: '../../env.ts',
    allowed: false,
    because: 'a repository reading Env',
  },
  {
    file: 'src/server/app.ts',
    imports: './env.ts',
    allowed: true,
    because: 'the composition root mapping Env to module settings',
  },
];

describe('ESLint enforces the dependency rule', () => {
  for (const c of cases) {
    it(`${c.allowed ? 'allows' : 'forbids'} ${c.because} (${c.file} → ${c.imports})`, async () => {
      const errors = await restrictedImportErrors(c.file, c.imports);
      if (c.allowed) expect(errors).toEqual([]);
      else expect(errors.length).toBeGreaterThan(0);
    });
  }
});
