import { describe, expect, it } from 'vitest';
import { audioLimits, claimProblem, decodedProblem } from './audio.rules.ts';

describe('audio rules', () => {
  it('refuses a sample rate no music has, before decoding', () => {
    expect(claimProblem({ sampleRate: 1, durationMs: 4_000_000 })).toBe('sample_rate');
    expect(claimProblem({ sampleRate: 7_999 })).toBe('sample_rate');
    expect(claimProblem({ sampleRate: 1_000_000 })).toBe('sample_rate');
    expect(claimProblem({ sampleRate: Number.NaN })).toBe('sample_rate');
    for (const rate of [8_000, 22_050, 44_100, 48_000, 96_000, 384_000])
      expect(claimProblem({ sampleRate: rate, durationMs: 180_000 })).toBeNull();
    expect(claimProblem({})).toBeNull();
  });

  it('refuses a claimed duration beyond the bound (a Xing header of 2^32 frames)', () => {
    const xing = Math.round(((2 ** 32 - 1) * 1152 * 1000) / 44_100);
    expect(claimProblem({ sampleRate: 44_100, durationMs: xing })).toBe('too_long');
    expect(claimProblem({ durationMs: audioLimits.maxDurationMs + 1 })).toBe('too_long');
    expect(claimProblem({ durationMs: Number.POSITIVE_INFINITY })).toBe('too_long');
    expect(claimProblem({ durationMs: audioLimits.maxDurationMs })).toBeNull();
  });

  it('refuses what decodes to nothing or to more than the bound', () => {
    expect(decodedProblem(0)).toBe('no_audio');
    expect(decodedProblem(Number.NaN)).toBe('no_audio');
    expect(decodedProblem(audioLimits.maxDurationMs + 1)).toBe('too_long');
    expect(decodedProblem(audioLimits.maxDurationMs)).toBeNull();
  });

  it('allows padding-sized differences from the claim, refuses wild ones', () => {
    expect(decodedProblem(3_000, 3_030)).toBeNull(); // MP3 encoder padding
    expect(decodedProblem(1_000, 6_000)).toBeNull(); // within 5 s
    expect(decodedProblem(1_000, 6_001)).toBe('duration_mismatch');
    expect(decodedProblem(600_000, 740_000)).toBeNull(); // within 25 %
    expect(decodedProblem(600_000, 760_000)).toBe('duration_mismatch');
    expect(decodedProblem(3_005, 112_195_064_033)).toBe('duration_mismatch');
    expect(decodedProblem(60_000, 1_000)).toBe('duration_mismatch'); // claims less than it has
    expect(decodedProblem(60_000)).toBeNull(); // no claim: decoding decides alone
  });
});
