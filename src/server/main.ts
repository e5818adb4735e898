import fs from 'node:fs';
import path from 'node:path';
import { EnvError, parseEnv, type Env } from './env.ts';
import { openDatabase } from './db/client.ts';

// The host process. `npm start` runs the compiled copy (dist/server/main.js, built by
// scripts/build.mjs) in the launcher's own process; `npm run dev` and the tests run this file
// with tsx. Nothing here builds anything: the launcher builds what is missing or stale.

function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  const env = loadEnv();
  const webDir = path.resolve('dist/web');

  // The app's modules load while the database opens: PGlite compiles its WASM off the main
  // thread and a server connection waits on the network, so the two overlap.
  const appModules = Promise.all([
    import('./app.ts'),
    import('./bootstrap.ts'),
    import('./db/embedded-vacuum.ts'),
  ]);
  appModules.catch(() => {}); // awaited below; this only stops an early rejection going unhandled
  const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  await database.migrate();
  const [{ buildApp }, { bootstrap }, { createEmbeddedVacuum }] = await appModules;
  const app = await buildApp({ env, database, webDir });
  if (!env.dev && !fs.existsSync(path.join(webDir, 'index.html'))) {
    app.log.warn(
      { webDir },
      'the web app is not built: pages answer 503 until `npm run build` (npm start builds it)',
    );
  }
  await bootstrap({ env, database, log: app.log, accounts: app.accounts, jobs: app.jobs });
  // After the demo seed, whose files precede their rows; the pass runs beside the server.
  app.mediaReconciler.start();
  // Jobs left by a previous run (one killed mid-job runs again once its lease expires).
  await app.jobs.start();
  // The embedded engine has no autovacuum of its own (a server's does this itself).
  const vacuum = createEmbeddedVacuum({ database, log: app.log });
  vacuum.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await vacuum.stop();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.port, host: env.host });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
