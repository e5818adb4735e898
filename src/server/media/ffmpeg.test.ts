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

  it('runs at most `concurrency` decodes at once', async () => {
    const log = path.join(dir, 'overlap.log');
    const binary = script(
      'counting',
      `echo start >> '${log}'; sleep 0.2; echo end >> '${log}'\nprintf 'out_time_us=1000\\nprogress=end\\n'`,
    );
    const ffmpeg = createFfmpeg({ binary, concurrency: 2 });
    const file = wav(1);
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => ffmpeg.decodeAudio(file, 'wav')));
    expect(results.every((r) => r.ok && r.durationMs === 1)).toBe(true);
    let running = 0;
    let most = 0;
    for (const line of fs.readFileSync(log, 'utf8').trim().split('\n')) {
      running += line === 'start' ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
  });

  it('runs background work with a higher nice value, and the child gets no shell', async () => {
    // The stand-in prints its own nice value (field 19 of /proc/self/stat) and its arguments,
    // after a moment: the value is set just after the spawn, which a fast start can outrun.
    const binary = script(
      'nice',
      `sleep 0.2; echo "nice=$(cut -d' ' -f19 /proc/$$/stat)" >&2; printf '%s|' "$@" >&2`,
    );
    const ffmpeg = createFfmpeg({ binary });
    const result = await ffmpeg.run({
      args: ['-i', 'file:/x; rm -rf /', '$(id)'],
      timeoutMs: 5000,
      niceness: 10,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.stderr).toContain('nice=10');
    // Arguments arrive as given: nothing interpreted them.
    expect(result.stderr).toContain('-i|file:/x; rm -rf /|$(id)|');
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

  it('lets an upload check go before background work waiting for the same slot', async () => {
    const log = path.join(dir, 'order.log');
    const binary = script(
      'order',
      `echo "$1" >> '${log}'; sleep 0.2\nprintf 'out_time_us=1000\\nprogress=end\\n'`,
    );
    const ffmpeg = createFfmpeg({ binary, concurrency: 1 });
    const work = [
      ffmpeg.run({ args: ['bg1'], timeoutMs: 5000 }),
      ffmpeg.run({ args: ['bg2'], timeoutMs: 5000 }),
      ffmpeg.run({ args: ['bg3'], timeoutMs: 5000 }),
    ];
    await new Promise((r) => setTimeout(r, 50));
    const check = ffmpeg.decodeAudio(wav(1), 'wav');
    await Promise.all([...work, check]);
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'bg1',
      '-nostdin',
      'bg2',
      'bg3',
    ]);
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
