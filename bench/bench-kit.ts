import net from 'node:net';
import { wavHeader } from '../src/server/demo/synth.ts';

/**
 * One figure of a bench, printed beside a baseline measured in the same run on the same
 * machine (never a timed assertion). `ratio` ≥ 1 means at least as good as the baseline:
 * value/baseline when higher is better, baseline/value when lower is better.
 */
export type BenchRow = {
  name: string;
  value: number;
  baseline: number;
  ratio: number;
  /** Unit of value and baseline, e.g. 'ms', 'req/s', 'KB gz', 'score'. */
  unit?: string;
  /** What the baseline is, in a few words. */
  baselineName?: string;
  /** The product target, and whether this run met it. */
  target?: { text: string; met: boolean };
};

export type Log = (line: string) => void;

const round2 = (n: number) => Math.round(n * 100) / 100;

export function row(
  name: string,
  value: number,
  baseline: number,
  better: 'higher' | 'lower',
  extra: Pick<BenchRow, 'unit' | 'baselineName' | 'target'> = {},
): BenchRow {
  const ratio = better === 'higher' ? value / baseline : baseline / value;
  return { name, value: round2(value), baseline: round2(baseline), ratio: round2(ratio), ...extra };
}

/** A row for a figure that could not be measured in this run (printed as n/a). */
export function unavailable(name: string, why: string): BenchRow {
  return {
    name: `${name} (n/a: ${why})`,
    value: Number.NaN,
    baseline: Number.NaN,
    ratio: Number.NaN,
  };
}

/** Rejects after `ms` and runs `onTimeout` (kill a child, close a server) first. */
export async function withTimeout<T>(
  ms: number,
  what: string,
  work: Promise<T>,
  onTimeout?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; resolves with the milliseconds since `since`. */
export async function waitFor200(
  url: string,
  since: number,
  deadlineMs: number,
  alive: () => boolean,
): Promise<number> {
  while (Date.now() - since < deadlineMs) {
    if (!alive()) throw new Error(`the process serving ${url} exited`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return Date.now() - since;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer 200 within ${deadlineMs} ms`);
}

export const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** A valid 16-bit mono 44.1 kHz WAV of `bytes` bytes, generated 64 kB at a time as it is sent. */
export function lazyWav(bytes: number): () => AsyncGenerator<Buffer> {
  const dataBytes = bytes - 44;
  return async function* () {
    const h = wavHeader(dataBytes, 44100);
    yield h;
    const chunk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < chunk.length; i += 2)
      chunk.writeInt16LE(Math.round(Math.sin(i / 20) * 8000), i);
    let left = dataBytes;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
  };
}

/**
 * The end of a closed-loop load worker's script (search and listening benches): its
 * `clients` run `client(until, record)` unrecorded for `warmupMs`, then recorded for
 * `durationMs`; the worker posts `{ timed: true }` as the recorded part starts (a parent may
 * read CPU then) and `result` with the recorded seconds at the end. The script defines
 * client, clients, warmupMs, durationMs, result and agent.
 */
export const CLOSED_LOOP_RUN = `(async () => {
  const warm = performance.now() + warmupMs;
  await Promise.all(Array.from({ length: clients }, () => client(warm, false)));
  parentPort.postMessage({ timed: true });
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, () => client(started + durationMs, true)));
  result.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  parentPort.postMessage(result);
})();`;
