import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Two tiers, each runnable alone (`npm run test:unit`, `npm run test:integration`): unit tests
// need nothing but Node; integration tests get the migrated database templates first.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    exclude: ['tests/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Integration tests mostly wait on PostgreSQL, ffmpeg and child servers: two at a time
    // even on two cores (vitest's default is cores − 1, one here).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
