import type { WaveformDocument } from '../../contracts/songs.contract.ts';

/**
 * Waveform peaks for the player's scrubber (docs/decisions/0014), from the mono 16-bit PCM
 * that the pipeline's ffmpeg run writes beside the renditions at WAVEFORM_RATE: the largest
 * absolute sample of each bucket, scaled to 0..255. The bucket size is chosen from the
 * length measured at upload, so a song gets about WAVEFORM_BUCKETS of them whatever its
 * length, in constant memory.
 */
export const WAVEFORM_BUCKETS = 1000;
/** Low enough to be cheap to carry and scan, high enough for a drawn envelope. */
export const WAVEFORM_RATE = 8000;

export type PeakMeter = {
  /** Little-endian signed 16-bit samples; a chunk may end inside a sample. */
  push(chunk: Buffer): void;
  finish(): WaveformDocument;
};

export function createPeakMeter(expectedDurationMs: number, buckets = WAVEFORM_BUCKETS): PeakMeter {
  const expectedSamples = Math.max(1, Math.round((expectedDurationMs / 1000) * WAVEFORM_RATE));
  const perBucket = Math.max(1, Math.ceil(expectedSamples / buckets));
  const peaks: number[] = [];
  let max = 0;
  let count = 0;
  let carry: Buffer | null = null;

  const close = () => {
    peaks.push(Math.min(255, Math.round((max / 32767) * 255)));
    max = 0;
    count = 0;
  };

  return {
    push(chunk) {
      const data: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      const whole = data.length - (data.length % 2);
      for (let i = 0; i < whole; i += 2) {
        const v = Math.abs(data.readInt16LE(i));
        if (v > max) max = v;
        if (++count === perBucket) close();
      }
      carry = whole < data.length ? Buffer.from(data.subarray(whole)) : null;
    },
    finish() {
      if (count > 0) close();
      return { version: 1, buckets: peaks.length, peaks };
    },
  };
}
