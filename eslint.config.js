import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The dependency rule of ARCHITECTURE.md, enforced: web → contracts → core ← server; web and
// server never import each other; a feature module reaches another only through its
// <feature>.module.ts; only repositories (*.repository.ts) and src/server/db import Drizzle.
const layer = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const noWeb = { group: ['**/web/**'], message: 'server never imports the web app' };
const noDrizzle = {
  group: ['drizzle-orm', 'drizzle-orm/*'],
  message: 'only repositories (*.repository.ts) and src/server/db import Drizzle',
};
// From inside modules/<a>/: `../<b>/<file>` is another module's internals unless <file> is
// its <b>.module.ts.
const siblingModuleInternals = {
  regex: String.raw`^\.\./[^./][^/]*/(?![^/]+\.module\.ts$)`,
  message: 'another feature module is reached only through its <feature>.module.ts',
};
// Settings reach a module as its typed `settings` deps (app.ts maps them from env.ts), so a
// module's signature says what configuration it reads.
const noEnv = {
  group: ['**/env.ts'],
  message: 'a module takes its settings in its deps (app.ts maps them from env.ts), not Env',
};
// From anywhere else in the server (app.ts, bootstrap, cli, demo…): the same, by path.
const moduleInternals = {
  regex: String.raw`(^|/)modules/[^/]+/(?![^/]+\.module\.ts$)`,
  message: 'a feature module is reached only through its <feature>.module.ts',
};

// A route (or module) file registers its API operations from the route table
// (docs/decisions/0025): the entry gives method, path and schemas, so the server validates and
// serializes exactly what the web client is typed by. `app.get('/path', …)` and
// `app.route({ … })` are refused there.
const routesFromTable = {
  files: ['src/server/modules/**/*.{routes,module}.ts'],
  ignores: [
    // Registered as before until their upload routes' rework lands; their entries are in the table.
    'src/server/modules/{songs,podcasts,ads}/*.routes.ts',
    // Outside the table: /media (signed files, not /api) and the live socket (an upgrade).
    'src/server/modules/media/media.routes.ts',
    'src/server/modules/notifications/notifications-live.routes.ts',
  ],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        // On the plugin's instance (app or scope in route files), not a service's get().
        selector:
          'CallExpression[callee.object.name=/^(app|scope|fastify|instance)$/][callee.property.name=/^(get|head|post|put|patch|delete|options|all|route)$/]',
        message:
          'register an API route from its route table entry: contractRoute(app, entry, { … })',
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      '.tmp/**',
      'node_modules/**',
      'src/server/db/migrations/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  layer(
    ['src/core/**'],
    [
      {
        group: ['**/server/**', '**/web/**', '**/contracts/**'],
        message: 'core is pure: it imports nothing of the app',
      },
      {
        group: ['drizzle-orm', 'drizzle-orm/*', 'fastify', 'react', 'node:fs', 'node:net', 'pg'],
        message: 'core does no I/O',
      },
    ],
  ),
  layer(
    ['src/contracts/**'],
    [{ group: ['**/server/**', '**/web/**'], message: 'contracts depend on core only' }],
  ),
  layer(
    ['src/web/**'],
    [
      {
        group: ['**/server/**', 'drizzle-orm', 'drizzle-orm/*', 'fastify', 'pg'],
        message: 'web never imports the server',
      },
    ],
  ),
  layer(['src/server/db/**'], [noWeb]),
  routesFromTable,
  layer(
    ['src/server/modules/**'],
    [noWeb, siblingModuleInternals, noDrizzle, noEnv],
    ['**/*.repository.ts'],
  ),
  layer(['src/server/modules/**/*.repository.ts'], [noWeb, siblingModuleInternals, noEnv]),
  layer(
    ['src/server/**'],
    [noWeb, moduleInternals, noDrizzle],
    ['src/server/db/**', 'src/server/modules/**', '**/*.repository.ts'],
  ),
  layer(
    ['src/server/**/*.repository.ts'],
    [noWeb, moduleInternals],
    ['src/server/db/**', 'src/server/modules/**'],
  ),
);
