/**
 * The production build, in plain JavaScript so that plain `node` runs it (docs/decisions/0009).
 *
 *   node scripts/build.mjs            web app (Vite → dist/web) and server (esbuild → dist/server)
 *   node scripts/build.mjs server     only the server
 *   node scripts/build.mjs web        only the web app
 *
 * scripts/start.mjs (`npm start`) imports `ensureBuilt()`: it builds what is missing or older
 * than its sources, then serves the compiled server in its own process.
 *
 * The server bundle: src/server/main.ts and the plain-JavaScript packages it uses (Fastify
 * and its plugins, zod, Drizzle, jose…): loading ~450 files one by one cost ~0.25 s of every
 * start; one bundle loads in less. Packages on EXTERNAL stay in node_modules (see there why).
 * ESM with code splitting, so that a dynamic import() stays a separate file loaded only when
 * first used. The committed SQL migrations are copied to dist/server/migrations, where
 * db/client.ts looks for them first. Last, the bundle's
 * make-pglite-template.js makes dist/server/pglite-template (an empty migrated PGlite data
 * directory that new DATA_DIRs copy instead of running initdb) unless the one there fits.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

export const serverOut = at('dist', 'server');
export const serverEntry = path.join(serverOut, 'main.js');
const serverStamp = path.join(serverOut, 'build.json');
export const webOut = at('dist', 'web');
const webIndex = path.join(webOut, 'index.html');

// Sources whose change makes a build stale. Tests are no input of either build.
const shared = ['src/core', 'src/contracts'];
// A changed lock (a dependency updated or pinned) changes what the bundle holds.
const serverInputs = ['src/server', ...shared, 'scripts/build.mjs', 'package-lock.json'];
const webInputs = ['src/web', ...shared, 'vite.config.ts', 'package-lock.json'];
const isTest = (name) => /\.test\.tsx?$/.test(name);

/** Newest modification time (ms) of the files under `inputs`; 0 when none exists. */
function newestMtime(inputs) {
  let newest = 0;
  const visit = (file) => {
    let stat;
    try {
      stat = fs.statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) if (!isTest(entry)) visit(path.join(file, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of inputs) visit(at(input));
  return newest;
}

const mtimeOf = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** Why the server build must be (re)made, or null when it is current. */
export function serverBuildStale() {
  if (!fs.existsSync(serverEntry) || !fs.existsSync(serverStamp)) return 'missing';
  return newestMtime(serverInputs) > mtimeOf(serverStamp) ? 'older than its sources' : null;
}

/** Why the web build must be (re)made, or null when it is current. */
export function webBuildStale() {
  if (!fs.existsSync(webIndex)) return 'missing';
  return newestMtime(webInputs) > mtimeOf(webIndex) ? 'older than its sources' : null;
}

/** Runs `node <args>` in a child process; rejects when it fails. */
function node(args, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed; see the output above`)),
    );
  });
}

const PGLITE_TEMPLATE = 'pglite-template';

/**
 * Packages the server bundle leaves in node_modules, loaded from there at run time. A
 * package belongs here when it
 * - reads files beside its own modules (PGlite's .wasm/.data/.tar.gz, the API docs UI's
 *   static folder, @fastify/swagger's package.json, pino's worker-thread transports),
 * - is native (argon2, sharp) or loads an optional native module (pg → pg-native),
 * - or is loaded lazily and is large (the AWS SDK, nodemailer, WebAuthn, music-metadata):
 *   bundling would only move it into a chunk.
 * A new dependency that reads its own files must be added: tests run the sources, only
 * `npm start` and the browser journeys (tests/e2e/serve.ts) run this bundle.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@node-rs/argon2',
  'sharp',
  'pg',
  'pg-native',
  '@aws-sdk/*',
  'nodemailer',
  '@simplewebauthn/server',
  'music-metadata',
];

/**
 * Bundles the server into dist/server. `clean` empties the folder first (but for the PGlite
 * template, which checks itself); the automatic build of `npm start` does not, so a server
 * still running from an older build keeps the chunks it may load later (their names carry a
 * content hash, so the folder grows only on changes).
 */
export async function buildServer({ clean = false } = {}) {
  const esbuild = await import('esbuild');
  if (clean && fs.existsSync(serverOut)) {
    for (const entry of fs.readdirSync(serverOut)) {
      if (entry !== PGLITE_TEMPLATE) fs.rmSync(path.join(serverOut, entry), { recursive: true });
    }
  }
  fs.mkdirSync(serverOut, { recursive: true });
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: {
        main: 'src/server/main.ts',
        'make-pglite-template': 'src/server/db/make-pglite-template.ts',
      },
      outdir: serverOut,
      // Chunks sit beside main.js: code that reads import.meta.url (db/client.ts) finds
      // dist/server/migrations from any of them.
      chunkNames: '[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      external: EXTERNAL,
      // Bundled CommonJS packages require() the external ones (and node's own modules).
      banner: {
        js: "import { createRequire as __cantoRequire } from 'node:module'; const require = __cantoRequire(import.meta.url);",
      },
      sourcemap: 'linked',
      logLevel: 'warning',
    });
  } finally {
    // The JS API keeps esbuild's service process alive otherwise.
    await esbuild.stop();
  }
  const migrations = path.join(serverOut, 'migrations');
  fs.rmSync(migrations, { recursive: true, force: true });
  fs.cpSync(at('src', 'server', 'db', 'migrations'), migrations, { recursive: true });
  // In a process of its own: PGlite's memory must not stay in the launcher that then serves.
  await node([path.join(serverOut, 'make-pglite-template.js')], 'the PGlite template');
  // Written last: a build interrupted half way has no stamp and counts as missing.
  fs.writeFileSync(serverStamp, `${JSON.stringify({ builtAt: new Date().toISOString() })}\n`);
}

/** Builds the web app with Vite in a child process, so its memory never joins the server's. */
export function buildWeb() {
  const vite = at('node_modules', 'vite', 'bin', 'vite.js');
  return node([vite, 'build', '--logLevel', 'warn'], 'the web app build');
}

/**
 * Builds whatever is missing or older than its sources, web app and server side by side;
 * quiet when both are current.
 */
export async function ensureBuilt(log = (line) => console.log(line)) {
  const web = webBuildStale();
  const server = serverBuildStale();
  if (web) log(`Building the web app (${web})…`);
  if (server) log(`Building the server (${server})…`);
  await Promise.all([web && buildWeb(), server && buildServer()]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const what = process.argv[2] ?? 'all';
  if (!['all', 'web', 'server'].includes(what)) {
    console.error('usage: node scripts/build.mjs [all|web|server]');
    process.exit(2);
  }
  try {
    if (what !== 'server') await buildWeb();
    if (what !== 'web') {
      const started = Date.now();
      await buildServer({ clean: true });
      console.log(`dist/server built in ${Date.now() - started} ms`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
