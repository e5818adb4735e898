/**
 * The dependency rule of ARCHITECTURE.md is enforced by ESLint (eslint.config.js). These
 * cases lint one import at a made-up path and expect the rule to fire exactly where the
 * architecture forbids the import, and stay quiet where it allows it. The web app's import
 * graph is also read whole (dpdm): no cycle between its files nor between its layers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { fileCycles, layerCycles, webImportGraph } from '../helpers/import-graph.ts';

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
    imports: '@/contracts/songs.contract.ts',
    allowed: true,
    because: 'the web app using the shared contracts',
  },
  {
    file: 'src/web/features/social/profile-page.tsx',
    imports: '@/web/features/catalogue/song-card-with-actions.tsx',
    allowed: false,
    because: "a feature reaching into another feature's file",
  },
  {
    file: 'src/web/features/social/profile-page.tsx',
    imports: '@/web/features/catalogue/index.ts',
    allowed: true,
    because: "another feature's public face",
  },
  {
    file: 'src/web/features/social/profile-page.tsx',
    imports: '@/web/features/social/use-social.ts',
    allowed: true,
    because: 'a file of the same feature',
  },
  {
    file: 'src/web/features/library/liked-songs-page.tsx',
    imports: '../catalogue/index.ts',
    allowed: false,
    because: 'a relative import leaving its folder (the layer rules read @/web/… paths)',
  },
  {
    file: 'src/web/features/library/liked-songs-page.tsx',
    imports: '@/web/player/use-song-playback.ts',
    allowed: true,
    because: 'a feature using the player, session, components and lib below it',
  },
  {
    file: 'src/web/features/library/liked-songs-page.tsx',
    imports: '@/web/shell/screens.ts',
    allowed: false,
    because: 'a feature importing the shell that composes it',
  },
  {
    file: 'src/web/components/song/song-card.tsx',
    imports: '@/web/features/library/index.ts',
    allowed: false,
    because: 'a component importing a feature',
  },
  {
    file: 'src/web/components/song/song-card.tsx',
    imports: '@/web/player/use-player.ts',
    allowed: false,
    because: 'a component importing the player that is built on it',
  },
  {
    file: 'src/web/session/use-session.ts',
    imports: '@/web/features/auth/index.ts',
    allowed: false,
    because: 'the session importing a feature',
  },
  {
    file: 'src/web/player/player-bar.tsx',
    imports: '@/web/features/library/index.ts',
    allowed: false,
    because: 'the player importing a feature',
  },
  {
    file: 'src/web/player/player-bar.tsx',
    imports: '@/web/shell/app-shell.tsx',
    allowed: false,
    because: 'the player importing the shell',
  },
  {
    file: 'src/web/lib/format.ts',
    imports: '@/web/session/use-session.ts',
    allowed: false,
    because: 'lib importing a layer above it',
  },
  {
    file: 'src/web/shell/app-shell.tsx',
    imports: '@/web/features/library/like-button.tsx',
    allowed: false,
    because: "the shell reaching into a feature's file",
  },
  {
    file: 'src/web/shell/app-shell.tsx',
    imports: '@/web/features/library/index.ts',
    allowed: true,
    because: "the shell composing a feature's public face",
  },
  {
    file: 'src/web/app.tsx',
    imports: '@/web/features/library/playlists-page.tsx',
    allowed: true,
    because: 'the app taking a page for a lazy route',
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

describe('the web app has no import cycle', () => {
  const fixtures: string[] = [];
  afterAll(() => fixtures.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  /** A made-up web app: `files` maps paths under src/web to their source. */
  /** Each cycle as a set: where a search enters one depends on the order files are read. */
  const asSets = (cycles: string[][]) => cycles.map((cycle) => [...cycle].sort());

  function fixture(files: Record<string, string>): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-cycles-'));
    fixtures.push(root);
    fs.writeFileSync(path.join(root, 'tsconfig.json'), '{}');
    for (const [file, source] of Object.entries(files)) {
      const at = path.join(root, 'src/web', file);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, source);
    }
    return root;
  }

  it('finds none in src/web, between files or between layers', async () => {
    const tree = await webImportGraph(process.cwd());
    expect(Object.keys(tree).filter((f) => f.startsWith('src/web/')).length).toBeGreaterThan(100);
    expect(fileCycles(tree)).toEqual([]);
    expect(layerCycles(tree)).toEqual([]);
  }, 60_000);

  it('finds two files that import each other', async () => {
    const root = fixture({
      'lib/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'lib/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    });
    expect(asSets(fileCycles(await webImportGraph(root)))).toEqual([
      ['src/web/lib/a.ts', 'src/web/lib/b.ts'],
    ]);
  });

  it('finds two features that import each other through different files', async () => {
    const root = fixture({
      'features/x/a.ts': "import { b } from '../y/b.ts';\nexport const a = b;\n",
      'features/x/d.ts': 'export const d = 1;\n',
      'features/y/b.ts': 'export const b = 1;\n',
      'features/y/c.ts': "import { d } from '../x/d.ts';\nexport const c = d;\n",
    });
    const tree = await webImportGraph(root);
    expect(fileCycles(tree)).toEqual([]);
    expect(asSets(layerCycles(tree))).toEqual([['features/x', 'features/y']]);
  });
});
