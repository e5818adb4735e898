import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { CrashStep } from '../../src/server/storage/crash-point.ts';

/**
 * The real server process (src/server/main.ts) for tests that restart, kill or run two of it;
 * with `crashAt`, the crash tests' entry (server-entry.ts), the same host with a crash point.
 *
 * It binds a port of the system's choosing and the URL is read from its own "Server listening
 * at" line: a port picked by the test and bound later by the child could be taken in between
 * by another test's server (a full suite runs many), whose answers the test would then read.
 */
export type ServerChild = {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The exit signal, or the exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** Everything it printed so far, for a failing assertion's message. */
  output(): string;
};

type LogEntry = { msg?: string; level?: number };

const main = path.resolve('src/server/main.ts');
const crashEntry = path.resolve('tests/helpers/server-entry.ts');
const LISTENING = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/;
const children = new Set<ChildProcess>();

export async function startServerChild(
  env: Record<string, string>,
  options: {
    /** Also waited for: true once the log shows what the test needs (throw to fail). */
    readyWhen?: (entry: LogEntry, line: string) => boolean;
    timeoutMs?: number;
    /** The step at which the server kills itself (SIGKILL), as a crash would stop it. */
    crashAt?: CrashStep;
  } = {},
): Promise<ServerChild> {
  // node itself with tsx's loader (not the tsx launcher, which would stand between): a signal
  // reaches the server, and a server that kills itself exits with SIGKILL.
  const entry = options.crashAt ? [crashEntry, `--crash-at=${options.crashAt}`] : [main];
  const child = spawn(process.execPath, ['--import', 'tsx', ...entry], {
    // The listening line is logged at info.
    env: { ...process.env, ...env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(signal ?? code);
    }),
  );
  let output = '';
  let pending = '';
  let url: string | undefined;
  let readyToo = options.readyWhen === undefined;
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      pending += chunk;
      // Whole lines only: a chunk may end inside one.
      const lines = pending.split('\n');
      pending = lines.pop()!;
      try {
        for (const line of lines) {
          if (!line.startsWith('{')) continue;
          const entry = JSON.parse(line) as LogEntry;
          url ??= LISTENING.exec(entry.msg ?? '')?.[1];
          if (!readyToo && options.readyWhen!(entry, line)) readyToo = true;
        }
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
      if (url && readyToo) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    void exited.then((how) =>
      reject(new Error(`the server exited (${how}) before it was ready:\n${output}`)),
    );
  });
  const ms = options.timeoutMs ?? 150_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready within ${ms} ms:\n${output}`)), ms);
  });
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { child, url: url!, exited, output: () => output };
}

/** SIGTERM, then its exit code (0 for a graceful stop). */
export async function stopServerChild(server: ServerChild) {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM');
  return server.exited;
}

/** For afterAll: whatever a failed test left running. */
export function killServerChildren() {
  for (const child of children) child.kill('SIGKILL');
}
