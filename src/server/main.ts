import { EnvError, parseEnv, type Env } from './env.ts';
import { runHost } from './host.ts';

// The server process. `npm start` runs the compiled copy (dist/server/main.js, built by
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

runHost({ env: loadEnv() }).catch((error) => {
  console.error(error);
  process.exit(1);
});
