import { describe, expect, it } from 'vitest';
import { crossedScrobbleThreshold, scrobbleThresholdMs } from './scrobbling.rules.ts';

describe('the scrobbling rule', () => {
  it('is half the track, at most 4 minutes; never for a track under 30 s', () => {
    expect(scrobbleThresholdMs(200_000)).toBe(100_000);
    expect(scrobbleThresholdMs(30_001)).toBe(15_001);
    expect(scrobbleThresholdMs(900_000)).toBe(240_000);
    expect(scrobbleThresholdMs(480_000)).toBe(240_000);
    expect(scrobbleThresholdMs(29_999)).toBeNull();
    expect(scrobbleThresholdMs(null)).toBe(240_000);
  });

  it('is crossed by exactly the report that reaches it', () => {
    expect(crossedScrobbleThreshold(200_000, 0, 99_999)).toBe(false);
    expect(crossedScrobbleThreshold(200_000, 99_999, 100_000)).toBe(true);
    expect(crossedScrobbleThreshold(200_000, 0, 200_000)).toBe(true);
    expect(crossedScrobbleThreshold(200_000, 100_000, 150_000)).toBe(false);
    expect(crossedScrobbleThreshold(20_000, 0, 20_000)).toBe(false);
  });
});
