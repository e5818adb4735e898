/**
 * The production server as a bench sees it: `npm start`'s own command (node, the V8 flags of
 * package.json's start script, scripts/start.mjs) spawned on 127.0.0.1, and a bare Fastify
 * server spawned exactly the same way as the baseline. Memory is the serving process's own
 * RSS from /proc (Linux), the way `ps` reports it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { freePort, lazyWav, waitFor200 } from './bench-kit.ts';

const root = path.resolve(import.meta.dirname, '..');

/** The node options of package.json's start script (`exec node <options> scripts/start.mjs`). */
export function startNodeOptions(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  if (words[0] !== 'exec' || words[1] !== 'node')
    throw new Error(`npm start is no longer "exec node …": ${pkg.scripts.start}`);
  return words.slice(2, -1);
}

/** Builds dist/web and dist/server (and the PGlite template) if missing or stale, as npm start would. */
export function ensureProductionBuild() {
  const result = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "await (await import('./scripts/build.mjs')).ensureBuilt()"],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the production build failed');
}

/** A bare Fastify server: GET /api/health, and POST /api/songs storing the raw body to a file. */
function bareFastifyScript(): string {
  const file = path.join(root, '.tmp', 'bench-bare-fastify.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
const app = Fastify({ logger: { level: 'warn' } });
app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
app.get('/api/health', async () => ({ status: 'ok' }));
app.post('/api/songs', async (request, reply) => {
  const file = path.join(os.tmpdir(), 'canto-bench-bare-' + process.pid);
  try {
    await pipeline(request.body, fs.createWriteStream(file));
  } finally {
    fs.rmSync(file, { force: true });
  }
  return reply.status(201).send({ duration: 0 });
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`,
  );
  return file;
}

export type Server = {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 from /api/health. */
  startMs: number;
  /** Resident set size now, in MB. */
  rssMb(): number;
  stop(): Promise<void>;
};

/** Canto, the bare Fastify baseline, or another baseline's own script (a bench's). */
export type ServerKind = 'canto' | 'bare fastify' | { name: string; script: string };

export async function startServer(
  kind: ServerKind,
  /** Extra environment; a function of the port for values that name it (PUBLIC_URL). */
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
  deadlineMs = 180_000,
): Promise<Server> {
  const port = await freePort();
  const script =
    kind === 'canto'
      ? path.join(root, 'scripts', 'start.mjs')
      : kind === 'bare fastify'
        ? bareFastifyScript()
        : kind.script;
  const extra = typeof env === 'function' ? env(port) : env;
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, [...startNodeOptions(), script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...extra, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4000)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!alive()) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    });
  const url = `http://127.0.0.1:${port}`;
  try {
    const startMs = await waitFor200(`${url}/api/health`, started, deadlineMs, alive);
    return { url, pid: child.pid!, startMs, rssMb: () => rssMb(child.pid!), stop };
  } catch (error) {
    await stop();
    const name = typeof kind === 'string' ? kind : kind.name;
    throw new Error(`${name}: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for process ${pid}`);
  return kb / 1024;
}

/** RSS after the server has sat idle for `ms` (no request at all in between). */
export async function idleRssMb(server: Server, ms: number): Promise<number> {
  await new Promise((r) => setTimeout(r, ms));
  return server.rssMb();
}

/** The highest RSS sampled every 10 ms while `work` runs. */
export async function peakRssDuring(server: Server, work: () => Promise<unknown>) {
  let peak = server.rssMb();
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, server.rssMb());
    } catch {
      // The process exited; work() will say why.
    }
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return peak;
}

export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) {
    throw new Error(`sign-in as ${email} answered ${res.status}`);
  }
  return body.access_token;
}

/** POST /api/songs with a multipart body (title + a `bytes`-byte WAV), streamed; the song's id. */
export async function uploadSong(
  url: string,
  token: string | undefined,
  bytes: number,
): Promise<string | undefined> {
  const boundary = `----canto-bench-${crypto.randomUUID()}`;
  const wav = lazyWav(bytes);
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench upload\r\n`,
    );
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    yield* wav();
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const res = await fetch(`${url}/api/songs`, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id?: string }).id;
}
