import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../demo/synth.ts';
import { createFfmpeg } from './ffmpeg.ts';
import { cuesReserveBytes, RENDITIONS, transcode, TranscodeError } from './renditions.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-renditions-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** 16-bit mono PCM silence at 8 kHz. */
function wav(seconds: number): string {
  const data = seconds * 16_000;
  const file = path.join(dir, `${seconds}s.wav`);
  fs.writeFileSync(file, Buffer.concat([wavHeader(data, 8000), Buffer.alloc(data)]));
  return file;
}

const outputs = (name: string) =>
  Object.fromEntries(
    RENDITIONS.map((r) => [r.format, path.join(dir, `${name}-${r.format}.${r.extension}`)]),
  ) as Record<(typeof RENDITIONS)[number]['format'], string>;

describe('WebM cues room', () => {
  it('grows with the length: twice the ~4 bytes a second the muxer writes, plus a margin', () => {
    expect(cuesReserveBytes(0)).toBe(1024);
    expect(cuesReserveBytes(3_600_000)).toBe(1024 + 28_800); // an hour's cues are ~14.4 kB
    expect(cuesReserveBytes(-5)).toBe(1024);
  });

  it('refuses a run whose cues outgrew their room (ffmpeg still exits 0 then)', async () => {
    const ffmpeg = createFfmpeg({ binary: undefined, concurrency: 1 });
    const input = wav(400);
    // Told 0 s: 1 kB of room for 400 seconds' ~1.6 kB of cues.
    const wrong = transcode(
      ffmpeg,
      { input, demuxer: 'wav', outputs: outputs('short'), durationMs: 0 },
      400_000,
    );
    await expect(wrong).rejects.toBeInstanceOf(TranscodeError);
    await expect(wrong).rejects.toThrow(/cues/);
    // Told the truth, the same file encodes.
    const right = await transcode(
      ffmpeg,
      { input, demuxer: 'wav', outputs: outputs('right'), durationMs: 400_000 },
      400_000,
    );
    expect(Math.abs(right.durationMs - 400_000)).toBeLessThan(100);
  }, 60_000);
});
