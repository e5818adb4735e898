/**
 * The server process as the crash tests run it (server-child.ts with `crashAt`): main.ts's host
 * with a crash point handed to buildApp, so that it SIGKILLs itself at `--crash-at=<step>`:
 * no `finally`, no close and no flush runs, exactly as after `kill -9`. Production has no such
 * switch; this file is the only place one is made.
 */
import { parseEnv } from '../../src/server/env.ts';
import { runHost } from '../../src/server/host.ts';
import type { CrashPoint, CrashStep } from '../../src/server/storage/crash-point.ts';

const PREFIX = '--crash-at=';
const at = process.argv.find((arg) => arg.startsWith(PREFIX))?.slice(PREFIX.length) as
  CrashStep | undefined;

const crash: CrashPoint | undefined = at
  ? (step) => {
      if (step === at) process.kill(process.pid, 'SIGKILL');
    }
  : undefined;

runHost({ env: parseEnv(process.env), crash }).catch((error) => {
  console.error(error);
  process.exit(1);
});
