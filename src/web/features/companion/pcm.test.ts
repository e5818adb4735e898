import { describe, expect, it } from 'vitest';
import { COMPANION_FRAME_SAMPLES } from '@/contracts/companion.contract.ts';
import {
  base64ToBytes,
  bytesToBase64,
  decodeAudioDelta,
  encodeAudioFrame,
  floatToPcm16,
  FrameAssembler,
  pcm16ToFloat,
  Resampler,
} from './pcm.ts';

describe('PCM 16-bit little-endian', () => {
  it('encodes full scale, silence and negative full scale as s16le', () => {
    const bytes = floatToPcm16(Float32Array.from([0, 1, -1, 0.5]));
    expect([...bytes]).toEqual([0x00, 0x00, 0xff, 0x7f, 0x00, 0x80, 0x00, 0x40]);
  });

  it('clips samples beyond ±1 instead of wrapping around', () => {
    const bytes = floatToPcm16(Float32Array.from([1.5, -3]));
    expect([...pcm16ToFloat(bytes)]).toEqual([1, -1]);
  });

  it('decodes what it encodes within one quantisation step', () => {
    const samples = Float32Array.from({ length: 256 }, (_, i) => Math.sin(i / 7) * 0.8);
    const back = pcm16ToFloat(floatToPcm16(samples));
    expect(back).toHaveLength(samples.length);
    back.forEach((v, i) => expect(Math.abs(v - samples[i]!)).toBeLessThan(1 / 0x7fff));
  });

  it('reads samples from a view that does not start at its buffer’s start', () => {
    const buffer = new Uint8Array([9, 0x00, 0x80, 0xff, 0x7f]);
    expect([...pcm16ToFloat(buffer.subarray(1))]).toEqual([-1, 1]);
  });

  it('drops a trailing odd byte', () => {
    expect(pcm16ToFloat(new Uint8Array([0xff, 0x7f, 0x12]))).toHaveLength(1);
  });
});

describe('base64', () => {
  it('round-trips every byte value', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect([...base64ToBytes(text)]).toEqual([...bytes]);
  });

  it('encodes a frame larger than one fromCharCode slice', () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) & 0xff);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('a 4096-sample frame is 8192 bytes of PCM, and the delta decodes back to it', () => {
    const frame = Float32Array.from({ length: COMPANION_FRAME_SAMPLES }, (_, i) => (i % 100) / 100);
    const wire = encodeAudioFrame(frame);
    expect(Buffer.from(wire, 'base64')).toHaveLength(COMPANION_FRAME_SAMPLES * 2);
    const back = decodeAudioDelta(wire);
    expect(back).toHaveLength(COMPANION_FRAME_SAMPLES);
    expect(Math.abs(back[99]! - 0.99)).toBeLessThan(1e-4);
  });
});

describe('FrameAssembler (spec §9: 4096-sample frames)', () => {
  it('sends nothing until 4096 samples are in, then exactly 4096 in order', () => {
    const frames: Float32Array[] = [];
    const assembler = new FrameAssembler((f) => frames.push(f));
    let n = 0;
    const block = () => Float32Array.from({ length: 128 }, () => n++);
    for (let i = 0; i < 31; i++) assembler.push(block());
    expect(frames).toHaveLength(0);
    assembler.push(block());
    expect(frames).toHaveLength(1);
    expect(frames[0]).toHaveLength(COMPANION_FRAME_SAMPLES);
    expect(frames[0]![0]).toBe(0);
    expect(frames[0]![4095]).toBe(4095);
  });

  it('splits a block that straddles two frames and carries the rest over', () => {
    const frames: Float32Array[] = [];
    const assembler = new FrameAssembler((f) => frames.push(f), 4);
    assembler.push(Float32Array.from([1, 2, 3]));
    assembler.push(Float32Array.from([4, 5, 6, 7, 8, 9, 10]));
    expect(frames.map((f) => [...f])).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    assembler.push(Float32Array.from([11, 12]));
    expect(frames.map((f) => [...f]).at(-1)).toEqual([9, 10, 11, 12]);
  });
});

describe('Resampler', () => {
  it('passes audio through unchanged at the same rate', () => {
    const block = Float32Array.from([0.1, 0.2]);
    expect(new Resampler(24_000, 24_000).process(block)).toBe(block);
  });

  it('halves 48 kHz to 24 kHz and keeps the count over many blocks', () => {
    const r = new Resampler(48_000, 24_000);
    let total = 0;
    for (let i = 0; i < 375; i++) total += r.process(new Float32Array(128)).length;
    expect(total).toBe(24_000);
  });

  it('44.1 kHz to 24 kHz gives 24000 samples a second, a ramp stays a ramp across blocks', () => {
    const r = new Resampler(44_100, 24_000);
    const out: number[] = [];
    let n = 0;
    while (n < 44_100) {
      const block = Float32Array.from({ length: 128 }, () => n++ / 44_100);
      out.push(...r.process(block));
    }
    expect(Math.abs(out.length - 24_000 * (n / 44_100))).toBeLessThanOrEqual(1);
    for (let i = 1; i < out.length; i++) {
      expect(out[i]! - out[i - 1]!).toBeCloseTo(1 / 24_000, 6);
    }
  });
});
