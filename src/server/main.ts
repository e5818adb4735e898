import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvError, parseEnv, type Env } from './env.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { resolveSecretKey } from './security/secrets.ts';
import { bootstrap } from './bootstrap.ts';

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

/** `npm start` on a fresh clone builds the web app once, so two commands are enough. */
function ensureWebBuild(webDir: string) {
  if (fs.existsSync(path.join(webDir, 'index.html'))) return;
  console.log('Building the web app (first start only)…');
  const vite = path.resolve('node_modules/.bin/vite');
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The web app failed to build; see the output above.');
    process.exit(1);
  }
}

async function main() {
  const env = loadEnv();
  env.secretKey = resolveSecretKey(env.secretKey, env.dataDir);
  const webDir = path.resolve('dist/web');
  if (process.env.CANTO_DEV !== '1') ensureWebBuild(webDir);

  const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  await database.migrate();
  const app = await buildApp({ env, database, webDir });
  await bootstrap({ env, database, log: app.log, accounts: app.accounts });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.port, host: process.env.HOST ?? '0.0.0.0' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
