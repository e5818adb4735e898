import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../demo/synth.ts';
import { createFfmpeg } from './ffmpeg.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-ffmpeg-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** 16-bit mono PCM silence: `seconds` at 8 kHz. */
function wav(seconds: number): string {
  const data = seconds * 16_000;
  const h = wavHeader(data, 8000);
  const file = path.join(dir, `${seconds}s.wav`);
  fs.writeFileSync(file, Buffer.concat([h, Buffer.alloc(data)]));
  return file;
}

/** A stand-in binary: a shell script (for what the real ffmpeg will not do on cue). */
function script(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('ffmpeg', () => {
  it('measures a file by decoding it with the packaged binary', async () => {
    const ffmpeg = createFfmpeg({ binary: undefined });
    expect(await ffmpeg.decodeAudio(wav(2), 'wav')).toEqual({ ok: true, durationMs: 2000 });
  });

  it('reports a file it cannot read as the demuxer it was told, without guessing another', async () => {
    const ffmpeg = createFfmpeg({ binary: undefined });
    const result = await ffmpeg.decodeAudio(wav(1), 'flac');
    expect(result.ok).toBe(false);
  });

  it('kills a decode that outlives its time limit', async () => {
    const ffmpeg = createFfmpeg({ binary: script('slow', 'sleep 10'), timeoutMs: 300 });
    const started = Date.now();
    const result = await ffmpeg.decodeAudio(wav(1), 'wav');
    expect(result).toEqual({ ok: false, why: 'killed by SIGKILL after 300 ms' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails loudly (a server fault) when FFMPEG_PATH names nothing', async () => {
    const ffmpeg = createFfmpeg({ binary: path.join(dir, 'missing-ffmpeg') });
    await expect(ffmpeg.decodeAudio(wav(1), 'wav')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  /** Most processes of the log's start/end lines running at once. */
  function mostAtOnce(log: string): number {
    let running = 0;
    let most = 0;
    for (const line of fs.readFileSync(log, 'utf8').trim().split('\n')) {
      running += line === 'start' ? 1 : -1;
      most = Math.max(most, running);
    }
    return most;
  }

  it('runs at most `probes` upload decodes at once', async () => {
    const log = path.join(dir, 'overlap.log');
    const binary = script(
      'counting',
      `echo start >> '${log}'; sleep 0.2; echo end >> '${log}'\nprintf 'out_time_us=1000\\nprogress=end\\n'`,
    );
    const ffmpeg = createFfmpeg({ binary, concurrency: 1, probes: 2 });
    const file = wav(1);
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => ffmpeg.decodeAudio(file, 'wav')));
    expect(results.every((r) => r.ok && r.durationMs === 1)).toBe(true);
    expect(mostAtOnce(log)).toBe(2);
  });

  it('runs at most `concurrency` background runs (media jobs) at once', async () => {
    const log = path.join(dir, 'overlap-jobs.log');
    const binary = script(
      'counting-jobs',
      `echo start >> '${log}'; sleep 0.2; echo end >> '${log}'`,
    );
    const ffmpeg = createFfmpeg({ binary, concurrency: 2, probes: 1 });
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(() => ffmpeg.run({ args: [], timeoutMs: 5000 })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(mostAtOnce(log)).toBe(2);
  });

  it('never queues an upload decode behind background runs that fill their lane', async () => {
    // A background run takes 4 s; the upload's decode answers at once.
    const binary = script(
      'lanes',
      `case "$1" in job) sleep 4 ;; *) printf 'out_time_us=1000\\nprogress=end\\n' ;; esac`,
    );
    const ffmpeg = createFfmpeg({ binary, concurrency: 1, probes: 1 });
    const job = ffmpeg.run({ args: ['job'], timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await ffmpeg.decodeAudio(wav(1), 'wav')).toEqual({ ok: true, durationMs: 1 });
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await job).ok).toBe(true);
  });

  it('runs an interactive run beside background runs that fill their lane', async () => {
    // The background run ends only once the interactive one has run: queued behind it, the
    // interactive run would never start and the test would time out.
    const marker = path.join(dir, 'interactive-ran');
    const binary = script(
      'interactive',
      `case "$1" in job) while [ ! -e '${marker}' ]; do sleep 0.05; done ;; quick) touch '${marker}' ;; esac`,
    );
    const ffmpeg = createFfmpeg({ binary, concurrency: 1, probes: 1 });
    const job = ffmpeg.run({ args: ['job'], timeoutMs: 10_000 });
    expect((await ffmpeg.run({ args: ['quick'], timeoutMs: 5000, interactive: true })).ok).toBe(
      true,
    );
    expect((await job).ok).toBe(true);
  });

  it('runs background work at nice 10 and upload decodes at the server own; no shell', async () => {
    // The stand-in reports its own nice value (field 19 of /proc/self/stat): on stderr with
    // its arguments, and as its "duration" in ms, which is what a decode answers. It waits a
    // moment first: the value is set just after the spawn, which a fast start can outrun.
    const binary = script(
      'nice',
      `sleep 0.2; n=$(cut -d' ' -f19 /proc/$$/stat); echo "nice=$n" >&2; printf '%s|' "$@" >&2\nprintf 'out_time_us=%s000\\nprogress=end\\n' "$n"`,
    );
    const ffmpeg = createFfmpeg({ binary });
    const result = await ffmpeg.run({
      args: ['-i', 'file:/x; rm -rf /', '$(id)'],
      timeoutMs: 5000,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.stderr).toContain(`nice=${Math.min(19, os.getPriority() + 10)}`);
    // Arguments arrive as given: nothing interpreted them.
    expect(result.stderr).toContain('-i|file:/x; rm -rf /|$(id)|');
    expect(await ffmpeg.decodeAudio(wav(1), 'wav')).toEqual({
      ok: true,
      durationMs: os.getPriority(),
    });
  });

  it('kills a run whose job is given up (its signal aborts)', async () => {
    const ffmpeg = createFfmpeg({ binary: script('hang', 'sleep 10') });
    const controller = new AbortController();
    const started = Date.now();
    const pending = ffmpeg.run({ args: [], timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toEqual({
      ok: false,
      why: 'killed by SIGKILL: the job was given up',
      killed: true,
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('hands fd 3 to the caller (the waveform PCM)', async () => {
    const binary = script('fd3', `printf 'abc' >&3`);
    const ffmpeg = createFfmpeg({ binary });
    let got = '';
    const result = await ffmpeg.run({
      args: [],
      timeoutMs: 5000,
      pipe3: (stream) => stream.on('data', (d: Buffer) => (got += d.toString())),
    });
    expect(result.ok).toBe(true);
    expect(got).toBe('abc');
  });
});
