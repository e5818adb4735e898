import fs from 'node:fs';
import path from 'node:path';
import type { Env } from './env.ts';
import { openDatabase } from './db/client.ts';
import type { CrashPoint } from './storage/crash-point.ts';

export type HostOptions = {
  env: Env;
  /** Fault injection for the crash tests' own entry (tests/helpers/server-entry.ts). */
  crash?: CrashPoint;
};

/**
 * The host process around the app: database and migrations, the app, start-up work, the
 * background workers, listen, and a graceful stop on SIGINT/SIGTERM. main.ts runs it with the
 * environment's settings.
 */
export async function runHost({ env, crash }: HostOptions): Promise<void> {
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
  const { app, jobs, reconciler, accounts, roles, profiles, storage } = await buildApp({
    env,
    database,
    webDir,
    crash,
  });
  if (!env.dev && !fs.existsSync(path.join(webDir, 'index.html'))) {
    app.log.warn(
      { webDir },
      'the web app is not built: pages answer 503 until `npm run build` (npm start builds it)',
    );
  }
  await bootstrap({ env, database, log: app.log, accounts, roles, profiles, storage, jobs });
  // After the demo seed, whose files precede their rows; the pass runs beside the server.
  reconciler.start();
  // Jobs left by a previous run (one killed mid-job runs again once its lease expires).
  await jobs.start();
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
      // The running jobs wind down (and give their leases back) while the requests in flight
      // finish: both within the grace a supervisor gives before SIGKILL (docs/decisions/0028).
      const jobsStopped = jobs.stop();
      await app.close();
      await jobsStopped;
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
