import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';

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
    // Outside the table: /media (signed files, not /api) and the live and companion sockets
    // (upgrades).
    'src/server/modules/media/media.routes.ts',
    'src/server/modules/notifications/notifications-live.routes.ts',
    'src/server/modules/companion/companion-socket.routes.ts',
    // /rest: the OpenSubsonic protocol for phone apps, not the JSON API (ADR 0034).
    'src/server/modules/subsonic/subsonic-rest.routes.ts',
    // /embed: HTML pages for other sites' iframes, outside the API as the web app's pages are.
    'src/server/modules/sharing/embed-pages.routes.ts',
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

// The web app's layers (src/web/README.md), each importing only those below it: lib ← session
// ← components ← player ← features ← shell and app.tsx. A feature sees another only through its
// index.ts; the composition layer (app.tsx, main.tsx, shell/) also takes pages (*-page.tsx) for
// lazy routes. An import that leaves its folder is written from the root (@/web/…, @/core/…),
// so each rule reads one spelling of it.
const webBase = [
  {
    group: ['**/server/**', 'drizzle-orm', 'drizzle-orm/*', 'fastify', 'pg'],
    message: 'web never imports the server',
  },
  {
    regex: String.raw`^\.\./`,
    message: 'in the web app an import that leaves its folder starts at the root: @/web/…',
  },
];
const webLayer = (files, patterns) => layer(files, [...webBase, ...patterns]);
const noShell = {
  regex: String.raw`^@/web/(shell/|app\.tsx$|main\.tsx$)`,
  message: 'the shell and app.tsx compose the layers below them; nothing imports them',
};
const noFeatures = {
  regex: String.raw`^@/web/features/`,
  message: 'components, session and player import no feature: take what a feature does as props',
};
const noPlayer = {
  regex: String.raw`^@/web/player/`,
  message: 'the player is above components and session: the list that renders them wires it',
};
const webFeatures = fs
  .readdirSync(new URL('./src/web/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// From inside features/<own>/: another feature's file other than its index.ts.
const otherFeatureInternals = (own) => ({
  regex: String.raw`^@/web/features/(?!${own}/)[^/]+/(?!index\.ts$)`,
  message: 'another feature is reached only through its index.ts (the shell composes pages)',
});

// The web app calls the API through the route table (docs/decisions/0025): `api(entry, input)`
// fills the path and types the answer from the entry, so no call site names a path as a free
// string, calls the older path-and-type methods, or states its own answer's type.
const apiThroughTable = {
  files: ['src/web/**/*.{ts,tsx}'],
  ignores: [
    // The client itself, and its test, which checks the URLs it builds.
    'src/web/lib/api-client.ts',
    'src/web/lib/api-client.test.ts',
  ],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: 'Literal[value=/^\\/api/]',
        message: 'call the API by its route table entry: api(entry, input) or routeUrl(entry, …)',
      },
      {
        selector: 'TemplateLiteral[quasis.0.value.raw=/^\\/api/]',
        message: 'call the API by its route table entry: api(entry, input) or routeUrl(entry, …)',
      },
      {
        selector:
          'MemberExpression[object.name="api"][property.name=/^(get|post|put|patch|delete)$/]',
        message: 'there is no api.get/post/put/patch/delete(path): call api(entry, input)',
      },
      {
        selector: 'CallExpression[callee.name="api"][typeArguments]',
        message: "api(entry, …)'s answer is typed by its entry: no type argument",
      },
      {
        selector: 'TSAsExpression > CallExpression.expression[callee.name="api"]',
        message: "api(entry, …)'s answer is typed by its entry: no `as`",
      },
      {
        selector: 'TSAsExpression > AwaitExpression.expression > CallExpression[callee.name="api"]',
        message: "api(entry, …)'s answer is typed by its entry: no `as`",
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
  webLayer(['src/web/**'], []),
  apiThroughTable,
  webLayer(
    ['src/web/lib/**'],
    [
      {
        regex: String.raw`^@/web/(?!lib/)`,
        message: 'lib is the bottom layer: it imports only lib',
      },
    ],
  ),
  webLayer(
    ['src/web/session/**'],
    [
      noShell,
      noFeatures,
      noPlayer,
      { regex: String.raw`^@/web/components/`, message: 'session is state, below every view' },
    ],
  ),
  webLayer(['src/web/components/**'], [noShell, noFeatures, noPlayer]),
  webLayer(['src/web/player/**'], [noShell, noFeatures]),
  ...webFeatures.map((feature) =>
    webLayer([`src/web/features/${feature}/**`], [noShell, otherFeatureInternals(feature)]),
  ),
  webLayer(
    ['src/web/shell/**', 'src/web/app.tsx', 'src/web/main.tsx'],
    [
      {
        regex: String.raw`^@/web/features/[^/]+/(?!index\.ts$|[^/]+-page\.tsx$)`,
        message: "the shell takes a feature's index.ts, or a page for a lazy route",
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
