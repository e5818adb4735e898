import { defineConfig, devices } from '@playwright/test';

// E2E_PORT lets two runs (e.g. a developer's and CI's) share a machine.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;

// Browser journeys against the real server (built web app + /api) on a throwaway DATA_DIR.
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  projects: [
    // Signs up the shared listener and signs in the admin once, through the API: sign-ups are
    // rate limited per address (5 an hour), so journeys reuse these sessions.
    { name: 'setup', testMatch: /global\.setup\.ts/ },
    { name: 'journeys', dependencies: ['setup'], testMatch: /.*\.spec\.ts/ },
  ],
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // With E2E_BASE_URL set, the suite runs against an already running server.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm run build && npx tsx tests/e2e/serve.ts',
        url: `${baseURL}/api/health`,
        timeout: 180_000,
        // Always a fresh server: a fresh DATA_DIR also means fresh rate-limit counters.
        reuseExistingServer: false,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
