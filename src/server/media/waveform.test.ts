import { describe, expect, it } from 'vitest';
import { createPeakMeter, WAVEFORM_RATE } from './waveform.ts';

const pcm = (samples: number[]) => {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => b.writeInt16LE(s, i * 2));
  return b;
};

describe('waveform peaks', () => {
  it('keeps the largest absolute sample of each bucket, scaled to 0..255', () => {
    // 1 ms expected at 8 kHz = 8 samples into 4 buckets of 2.
    const meter = createPeakMeter(1, 4);
    meter.push(pcm([0, 100, -32768, 5, 16384, -16384, 0, 0]));
    expect(meter.finish()).toEqual({ version: 1, buckets: 4, peaks: [1, 255, 128, 0] });
  });

  it('sizes buckets from the expected length, so a long song gets about 1,000', () => {
    const seconds = 300;
    const meter = createPeakMeter(seconds * 1000);
    const chunk = pcm(Array.from({ length: WAVEFORM_RATE }, (_, i) => (i % 2 ? 8000 : -8000)));
    for (let s = 0; s < seconds; s++) meter.push(chunk);
    const doc = meter.finish();
    expect(doc.buckets).toBe(1000);
    expect(doc.peaks.every((p) => p === 62)).toBe(true);
  });

  it('joins a sample split across two chunks', () => {
    const meter = createPeakMeter(1, 8);
    const bytes = pcm([1000, -20000, 3000]);
    meter.push(bytes.subarray(0, 3));
    meter.push(bytes.subarray(3));
    expect(meter.finish().peaks).toEqual([8, 156, 23]);
  });

  it('ends a shorter run than expected with what it heard, and an empty one with nothing', () => {
    const meter = createPeakMeter(2000);
    meter.push(pcm(Array.from({ length: 160 }, () => 32767)));
    expect(meter.finish()).toEqual({ version: 1, buckets: 10, peaks: Array(10).fill(255) });
    expect(createPeakMeter(2000).finish()).toEqual({ version: 1, buckets: 0, peaks: [] });
  });
});
