import { describe, expect, it } from 'vitest';
import { encodeWav, parseWav, pcm16FromBytes, pcm16ToBytes, resampleLinear, rms } from './pcm.ts';

const tone = (rate: number, hz: number, seconds: number, amplitude = 8000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );

/** Zero crossings per second: a tone's frequency, twice. */
const crossings = (s: Int16Array, rate: number) => {
  let n = 0;
  for (let i = 1; i < s.length; i++) if (s[i - 1]! < 0 !== s[i]! < 0) n++;
  return (n / s.length) * rate;
};

describe('WAV', () => {
  it('round-trips samples and rate', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    const wav = parseWav(encodeWav(samples, 16_000));
    expect(wav?.sampleRate).toBe(16_000);
    expect(Array.from(wav!.samples)).toEqual(Array.from(samples));
  });

  it('reads a streamed WAV whose data size is unknown (espeak-ng --stdout)', () => {
    const bytes = encodeWav(Int16Array.from([5, 6, 7]), 22_050);
    new DataView(bytes.buffer).setUint32(40, 0xffffffff, true);
    expect(Array.from(parseWav(bytes)!.samples)).toEqual([5, 6, 7]);
  });

  it('refuses what is not 16-bit PCM WAV', () => {
    expect(parseWav(new Uint8Array([1, 2, 3]))).toBeNull();
    const float = encodeWav(Int16Array.from([1]), 8000);
    new DataView(float.buffer).setUint16(20, 3, true);
    expect(parseWav(float)).toBeNull();
  });
});

describe('resampleLinear', () => {
  it('keeps duration and pitch from 22.05 kHz to 24 kHz and from 24 kHz to 16 kHz', () => {
    const source = tone(22_050, 440, 1);
    const up = resampleLinear(source, 22_050, 24_000);
    expect(up.length).toBe(24_000);
    expect(crossings(up, 24_000)).toBeCloseTo(880, -1);
    const down = resampleLinear(up, 24_000, 16_000);
    expect(down.length).toBe(16_000);
    expect(crossings(down, 16_000)).toBeCloseTo(880, -1);
    expect(rms(down)).toBeGreaterThan(5000);
  });

  it('copies at the same rate and handles nothing', () => {
    expect(Array.from(resampleLinear(Int16Array.from([1, 2]), 8000, 8000))).toEqual([1, 2]);
    expect(resampleLinear(new Int16Array(0), 8000, 16_000).length).toBe(0);
  });
});

describe('16-bit PCM bytes', () => {
  it('round-trips little-endian and refuses an odd byte count', () => {
    const samples = Int16Array.from([-2, 300, 32767]);
    const bytes = pcm16ToBytes(samples);
    expect(Array.from(bytes.subarray(0, 2))).toEqual([0xfe, 0xff]);
    expect(Array.from(pcm16FromBytes(bytes)!)).toEqual(Array.from(samples));
    expect(pcm16FromBytes(new Uint8Array(3))).toBeNull();
  });
});
