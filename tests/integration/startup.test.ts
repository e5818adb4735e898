import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const running = new Set<ChildProcess>();

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(tsx, [main], {
    env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'pipe',
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // Generous: a first PGlite open is seconds alone, more on a loaded 2-core machine.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy in 150 s');
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGTERM');
  return exited;
}

afterAll(async () => {
  for (const child of running) await stop(child);
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
    const port = await freePort();
    const credentials = { email: 'restart@example.com', password: 'restart-pass' };
    let server = await start(port);
    const signUp = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...credentials, display_name: 'Restart Person' }),
    });
    expect(signUp.status).toBe(201);
    expect(await stop(server)).toBe(0);

    server = await start(port);
    try {
      const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      expect(signIn.status).toBe(200);
      expect((await signIn.json()).user.display_name).toBe('Restart Person');
    } finally {
      expect(await stop(server)).toBe(0);
    }
  }, 400_000);
});
