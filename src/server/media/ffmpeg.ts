import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * ffmpeg as a child process: uploads are measured by decoding them, not by what their headers
 * claim (issue 7 §10). The binary is FFMPEG_PATH (env.ts) or the one @ffmpeg-installer ships
 * for this platform, resolved once, on first use. It is spawned without a shell, with
 * `-nostdin`, a time limit and a server-made path only: nothing a client sent reaches its
 * arguments.
 */

/** ffmpeg demuxers for the containers uploads may be (media-intake's AudioContainer). */
export type Demuxer = 'mp3' | 'wav' | 'flac' | 'ogg' | 'mov';

export type Decoded =
  | { ok: true; durationMs: number }
  /** `why` is for the log only: ffmpeg's words name server paths. */
  | { ok: false; why: string };

export type Ffmpeg = {
  /** Decodes the first audio stream of `path` as `demuxer` to nowhere; how long it lasted. */
  decodeAudio(path: string, demuxer: Demuxer): Promise<Decoded>;
};

export type FfmpegOptions = {
  /** FFMPEG_PATH; undefined: the package's binary. */
  binary: string | undefined;
  /** A decode still running after this is killed (a 100 MB MP3 decodes in ~6 s here). */
  timeoutMs?: number;
  /** Decodes at once; more wait their turn (each one keeps a core busy). */
  concurrency?: number;
};

const STDERR_KEEP = 2048;

function packagedBinary(): string {
  // require, not import: the package finds its binary from its own __dirname, which the
  // server bundle would not have (docs/decisions/0009); this keeps it in node_modules.
  const require = createRequire(import.meta.url);
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export function createFfmpeg({
  binary,
  timeoutMs = 120_000,
  concurrency = 2,
}: FfmpegOptions): Ffmpeg {
  let resolved: string | undefined;
  let running = 0;
  const waiting: Array<() => void> = [];

  async function turn<T>(work: () => Promise<T>): Promise<T> {
    if (running >= concurrency) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }

  function run(path: string, demuxer: Demuxer): Promise<Decoded> {
    resolved ??= binary ?? packagedBinary();
    const args = [
      '-nostdin',
      '-hide_banner',
      '-v',
      'error',
      // The demuxer the bytes were recognised as: ffmpeg never guesses another (a playlist
      // format would open further files or URLs).
      '-f',
      demuxer,
      '-i',
      `file:${path}`,
      '-map',
      '0:a:0',
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-nostats',
      '-',
    ];
    return new Promise((resolve, reject) => {
      const child = spawn(resolved!, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        // Progress blocks repeat; only the last one (after the last decoded frame) matters.
        stdout = (stdout + d).slice(-4096);
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (stderr.length < STDERR_KEEP) stderr = (stderr + d).slice(0, STDERR_KEEP);
      });
      // Could not start at all (FFMPEG_PATH wrong): a server fault, not the file's.
      child.on('error', reject);
      child.on('exit', (_code, signal) => {
        if (!signal) return;
        // Killed (the time limit): answer now. A wrapper script's own children could keep
        // the pipes, and so 'close', open long after.
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({ ok: false, why: `killed by ${signal} after ${timeoutMs} ms` });
      });
      child.on('close', (code, signal) => {
        if (signal) return;
        if (code !== 0) return resolve({ ok: false, why: `exit ${code}: ${stderr.trim()}` });
        const ended = /progress=end/.test(stdout);
        const times = [...stdout.matchAll(/^out_time_us=(-?\d+)$/gm)];
        const us = Number(times.at(-1)?.[1] ?? NaN);
        if (!ended || !Number.isFinite(us))
          return resolve({ ok: false, why: 'no progress report' });
        resolve({ ok: true, durationMs: Math.max(0, Math.round(us / 1000)) });
      });
    });
  }

  return { decodeAudio: (path, demuxer) => turn(() => run(path, demuxer)) };
}
