import { describe, expect, it } from 'vitest';
import { encodeWav, FLAVOURS, GENRES, renderTrack, seededRandom, synthesizeWav } from './synth.ts';

/** The fields of a canonical 44-byte PCM WAV header, read by hand (no audio library here). */
function parseWav(b: Buffer) {
  const ascii = (at: number) => b.toString('ascii', at, at + 4);
  return {
    riff: ascii(0),
    riffSize: b.readUInt32LE(4),
    wave: ascii(8),
    fmt: ascii(12),
    fmtSize: b.readUInt32LE(16),
    format: b.readUInt16LE(20),
    channels: b.readUInt16LE(22),
    sampleRate: b.readUInt32LE(24),
    byteRate: b.readUInt32LE(28),
    blockAlign: b.readUInt16LE(32),
    bitsPerSample: b.readUInt16LE(34),
    data: ascii(36),
    dataSize: b.readUInt32LE(40),
  };
}

function samplesOf(b: Buffer): Int16Array {
  return new Int16Array(b.buffer.slice(b.byteOffset + 44, b.byteOffset + b.length));
}

describe('demo synth', () => {
  it('writes a valid 16-bit mono PCM WAV header whose sizes add up', () => {
    const { wav } = synthesizeWav({ seed: 'header', flavour: FLAVOURS.Pop, seconds: 2 });
    const h = parseWav(wav);
    expect(h).toEqual({
      riff: 'RIFF',
      riffSize: wav.length - 8,
      wave: 'WAVE',
      fmt: 'fmt ',
      fmtSize: 16,
      format: 1,
      channels: 1,
      sampleRate: 22_050,
      byteRate: 44_100,
      blockAlign: 2,
      bitsPerSample: 16,
      data: 'data',
      dataSize: wav.length - 44,
    });
  });

  it.each([
    [20, 22_050],
    [27.5, 22_050],
    [3, 44_100],
  ])('lasts %s s at %s Hz, by the header and by the reported duration', (seconds, sampleRate) => {
    const { wav, durationMs } = synthesizeWav({
      seed: 'len',
      flavour: FLAVOURS.Rock,
      seconds,
      sampleRate,
    });
    const h = parseWav(wav);
    expect(h.sampleRate).toBe(sampleRate);
    expect(h.dataSize / h.byteRate).toBeCloseTo(seconds, 3);
    expect(durationMs).toBe(Math.round(seconds * 1000));
  });

  it('is deterministic per seed and differs between seeds', () => {
    const a = synthesizeWav({ seed: 'same', flavour: FLAVOURS.Jazz, seconds: 3 }).wav;
    const b = synthesizeWav({ seed: 'same', flavour: FLAVOURS.Jazz, seconds: 3 }).wav;
    const c = synthesizeWav({ seed: 'other', flavour: FLAVOURS.Jazz, seconds: 3 }).wav;
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it.each([...GENRES, 'Podcast' as const])(
    '%s is audible, not clipped, and starts and ends silent',
    (genre) => {
      const { wav } = synthesizeWav({ seed: genre, flavour: FLAVOURS[genre], seconds: 6 });
      const s = samplesOf(wav);
      let sumSquares = 0;
      let peak = 0;
      for (const v of s) {
        sumSquares += v * v;
        peak = Math.max(peak, Math.abs(v));
      }
      const rms = Math.sqrt(sumSquares / s.length) / 32767;
      expect(rms).toBeGreaterThan(0.05);
      expect(peak).toBeLessThan(32767);
      expect(Math.abs(s[0]!)).toBeLessThan(50);
      expect(Math.abs(s[s.length - 1]!)).toBeLessThan(50);
    },
  );

  it('gives genres different tempos: a drum track has energy on its beats', () => {
    // Kick on every beat at 124 bpm: the loudest 10 ms windows fall on the beat grid.
    const samples = renderTrack({
      seed: 'grid',
      flavour: { ...FLAVOURS.Electronic, lead: 'sine', density: 0 },
      seconds: 4,
    });
    const beat = Math.round((60 / 124) * 22_050);
    const window = 220;
    const energy = (at: number) => {
      let e = 0;
      for (let i = at; i < at + window && i < samples.length; i++) e += samples[i]! ** 2;
      return e;
    };
    const onBeat = [2, 3, 4, 5].map((k) => energy(k * beat));
    const offBeat = [2, 3, 4, 5].map((k) => energy(k * beat + Math.round(beat * 0.375)));
    expect(onBeat.reduce((a, b) => a + b)).toBeGreaterThan(2 * offBeat.reduce((a, b) => a + b));
  });

  it('clamps out-of-range samples when encoding', () => {
    const wav = encodeWav(Float32Array.from([2, -2, 0.5]), 8000);
    expect([...samplesOf(wav)]).toEqual([32767, -32767, 16384]);
  });

  it('seededRandom is uniform enough for melodies', () => {
    const random = seededRandom('u');
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 10_000; i++) buckets[Math.floor(random() * 10)]++;
    for (const n of buckets) expect(n).toBeGreaterThan(850);
  });
});
