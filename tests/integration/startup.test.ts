import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killServerChildren, startServerChild, stopServerChild } from '../helpers/server-child.ts';

// The real host process (src/server/main.ts): configuration errors, start-up and restart.
const tsx = path.resolve('node_modules/.bin/tsx');
const main = path.resolve('src/server/main.ts');
const dataDir = path.resolve('.tmp', `startup-${process.pid}-${Date.now()}`);

const baseEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  DEMO: '0',
  LOG_LEVEL: 'warn',
  CANTO_DEV: '1', // no web build in this test
  DATABASE_URL: '',
};

/** The server on the test's DATA_DIR, once it answers (a first PGlite open takes seconds). */
const start = () =>
  startServerChild({ DATA_DIR: dataDir, DEMO: '0', CANTO_DEV: '1', DATABASE_URL: '' });

afterAll(async () => {
  killServerChildren();
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
});

describe('the server process', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://nope'],
    ['LOG_LEVEL', 'chatty'],
  ])('stops with one clear line naming %s when its value is bad', (name, value) => {
    const r = spawnSync(tsx, [main], {
      env: { ...baseEnv, [name]: value },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.trim() && !l.includes('nodedir'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
  });

  it('keeps its data across a graceful restart on the same DATA_DIR', async () => {
    const credentials = { email: 'restart@example.com', password: 'restart-pass' };
    let server = await start();
    const signUp = await fetch(`${server.url}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...credentials, display_name: 'Restart Person' }),
    });
    expect(signUp.status).toBe(201);
    expect(await stopServerChild(server)).toBe(0);

    server = await start();
    try {
      const signIn = await fetch(`${server.url}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      expect(signIn.status).toBe(200);
      expect((await signIn.json()).user.display_name).toBe('Restart Person');
    } finally {
      expect(await stopServerChild(server)).toBe(0);
    }
  }, 400_000);
});
