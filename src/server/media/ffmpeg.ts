import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import type { Readable } from 'node:stream';

/**
 * ffmpeg as a child process: uploads are measured by decoding them, not by what their headers claim
 * (docs/decisions/0006, "Bad bytes"), and the media pipeline makes renditions, loudness and peaks
 * with it (docs/decisions/0014). The binary is FFMPEG_PATH (env.ts) or the one @ffmpeg-installer
 * ships for this platform, resolved once, on first use. It is spawned without a shell, with
 * `-nostdin`, a time limit and server-made paths only: nothing a client sent reaches its arguments.
 *
 * Two lanes (docs/decisions/0028): an upload's measuring decode (a person waits for it) has its
 * own, capped at one per core, and never waits for a job's run; background runs (media jobs)
 * have theirs, capped at MEDIA_WORKERS, at nice 10 so the decodes and requests keep the CPU.
 */

/** ffmpeg demuxers for the containers uploads may be (media-intake's AudioContainer). */
export type Demuxer = 'mp3' | 'wav' | 'flac' | 'ogg' | 'mov';

export type Decoded =
  | { ok: true; durationMs: number }
  /** `why` is for the log only: ffmpeg's words name server paths. */
  | { ok: false; why: string };

export type RunOptions = {
  /** Everything after the binary; built by the server from server-made paths only. */
  args: string[];
  /** Killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** Kills the process when it aborts (a job given up by its worker). */
  signal?: AbortSignal;
  /** The process's nice value (default JOB_NICENESS): background work yields the CPU. */
  niceness?: number;
  /** Given the child's fd 3 (`pipe:3` in the arguments), e.g. raw PCM for the peaks. */
  pipe3?: (stream: Readable) => void;
  /**
   * A short run a person waits for (a preview's stream copy): in the upload checks' lane at
   * the server's priority, never behind a media job.
   */
  interactive?: boolean;
};

export type RunResult =
  | {
      ok: true;
      /** The last progress report's out_time (needs `-progress pipe:1`), if any. */
      durationMs: number | null;
      /** The end of what ffmpeg wrote to stderr (its summaries come last). */
      stderr: string;
    }
  | { ok: false; why: string; killed: boolean };

export type Ffmpeg = {
  /** Decodes the first audio stream of `path` as `demuxer` to nowhere; how long it lasted. */
  decodeAudio(path: string, demuxer: Demuxer): Promise<Decoded>;
  /** One ffmpeg run: a media job's in the job lane, an `interactive` one in the checks' lane. */
  run(options: RunOptions): Promise<RunResult>;
  /** The binary's path (benchmarks run it by hand beside the pipeline). */
  binary(): string;
};

export type FfmpegOptions = {
  /** FFMPEG_PATH; undefined: the package's binary. */
  binary: string | undefined;
  /** A decode still running after this is killed (a 100 MB MP3 decodes in ~6 s here). */
  timeoutMs?: number;
  /** Background runs at once (MEDIA_WORKERS); more wait their turn (each keeps a core busy). */
  concurrency?: number;
  /** Upload decodes at once, beside the background runs (default: one per core). */
  probes?: number;
};

/** Background runs' nice value: under CPU contention they get ~1/10 of a request's share. */
export const JOB_NICENESS = 10;

/** Enough of stderr's end for ebur128's summary, and of an error's last lines. */
const STDERR_KEEP = 8192;

/** The packaged ffmpeg's path (FFMPEG_PATH unset). */
export function packagedBinary(): string {
  // require, not import: the package finds its binary from its own __dirname, which the
  // server bundle would not have (docs/decisions/0009); this keeps it in node_modules.
  const require = createRequire(import.meta.url);
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** At most `size` at once; the rest wait in arrival order. */
function createLane(size: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function turn<T>(work: () => Promise<T>): Promise<T> {
    if (running >= size) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so nobody can take it in between.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

export function createFfmpeg({
  binary,
  timeoutMs = 120_000,
  concurrency = 2,
  probes = Math.max(2, os.availableParallelism()),
}: FfmpegOptions): Ffmpeg {
  let resolved: string | undefined;
  const resolve = () => (resolved ??= binary ?? packagedBinary());
  const probeLane = createLane(probes);
  const jobLane = createLane(concurrency);

  function spawnRun(options: RunOptions): Promise<RunResult> {
    const bin = resolve();
    return new Promise((done, fail) => {
      if (options.signal?.aborted) {
        done({ ok: false, why: 'aborted before start', killed: true });
        return;
      }
      const child = spawn(bin, options.args, {
        stdio: ['ignore', 'pipe', 'pipe', ...(options.pipe3 ? (['pipe'] as const) : [])],
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
      });
      if (options.niceness && child.pid !== undefined) {
        try {
          // On the child right after spawn: no `nice` binary needed, no extra process.
          os.setPriority(child.pid, Math.min(19, options.niceness));
        } catch {
          // Already gone, or not permitted here: it runs at normal priority.
        }
      }
      const onAbort = () => child.kill('SIGKILL');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.pipe3) options.pipe3(child.stdio[3] as Readable);
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        // Progress blocks repeat; only the last one (after the last decoded frame) matters.
        stdout = (stdout + d).slice(-4096);
      });
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        stderr = (stderr + d).slice(-STDERR_KEEP);
      });
      // Could not start at all (FFMPEG_PATH wrong): a server fault, not the file's.
      child.on('error', (error) => {
        options.signal?.removeEventListener('abort', onAbort);
        fail(error);
      });
      child.on('exit', (_code, signal) => {
        if (!signal) return;
        options.signal?.removeEventListener('abort', onAbort);
        // Killed (the time limit, an abort, someone else): answer now. A wrapper script's
        // own children could keep the pipes, and so 'close', open long after.
        for (const stream of child.stdio) stream?.destroy();
        const why = options.signal?.aborted
          ? `killed by ${signal}: the job was given up`
          : `killed by ${signal} after ${options.timeoutMs} ms`;
        done({ ok: false, why, killed: true });
      });
      child.on('close', (code, signal) => {
        if (signal) return;
        options.signal?.removeEventListener('abort', onAbort);
        if (code !== 0)
          return done({ ok: false, why: `exit ${code}: ${stderr.trim()}`, killed: false });
        const times = [...stdout.matchAll(/^out_time_us=(-?\d+)$/gm)];
        const us = Number(times.at(-1)?.[1] ?? NaN);
        done({
          ok: true,
          durationMs:
            /progress=end/.test(stdout) && Number.isFinite(us)
              ? Math.max(0, Math.round(us / 1000))
              : null,
          stderr,
        });
      });
    });
  }

  async function decodeAudio(path: string, demuxer: Demuxer): Promise<Decoded> {
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
    // The server's own priority, in the probe lane: never behind a media job.
    const result = await probeLane(() => spawnRun({ args, timeoutMs }));
    if (!result.ok) return { ok: false, why: result.why };
    if (result.durationMs === null) return { ok: false, why: 'no progress report' };
    return { ok: true, durationMs: result.durationMs };
  }

  return {
    decodeAudio,
    run: (options) =>
      options.interactive
        ? probeLane(() => spawnRun(options))
        : jobLane(() => spawnRun({ ...options, niceness: options.niceness ?? JOB_NICENESS })),
    binary: resolve,
  };
}
