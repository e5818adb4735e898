import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The dependency rule of ARCHITECTURE.md, enforced: web → contracts → core ← server;
// web and server never import each other; only server/db imports Drizzle.
const layer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

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
  layer(['src/server/**'], [{ group: ['**/web/**'], message: 'server never imports the web app' }]),
  layer(
    [
      'src/server/routes/**',
      'src/server/services/**',
      'src/server/auth/**',
      'src/server/http/**',
      'src/server/demo/**',
      'src/server/cli/**',
    ],
    [
      { group: ['**/web/**'], message: 'server never imports the web app' },
      {
        group: ['drizzle-orm', 'drizzle-orm/*'],
        message: 'only src/server/db imports Drizzle: use a repository',
      },
    ],
  ),
);
