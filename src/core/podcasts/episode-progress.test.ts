import { describe, expect, it } from 'vitest';
import { isPlayed, storedPositionMs } from './episode-progress.ts';

const MIN = 60_000;

describe('episode progress', () => {
  it('counts an hour-long episode played from 95 %, not before', () => {
    expect(isPlayed(57 * MIN - 1, 60 * MIN)).toBe(false);
    expect(isPlayed(57 * MIN, 60 * MIN)).toBe(true);
  });

  it('counts a five-minute episode played within 30 s of its end, before 95 %', () => {
    expect(isPlayed(270_000 - 1, 5 * MIN)).toBe(false);
    expect(isPlayed(270_000, 5 * MIN)).toBe(true);
    expect(270_000 / (5 * MIN)).toBeLessThan(0.95);
  });

  it('never counts a short episode played before its middle', () => {
    expect(isPlayed(0, 20_000)).toBe(false);
    expect(isPlayed(9_999, 20_000)).toBe(false);
    expect(isPlayed(10_000, 20_000)).toBe(true);
  });

  it('has nothing to go by without a duration', () => {
    expect(isPlayed(10 * MIN, null)).toBe(false);
    expect(isPlayed(0, 0)).toBe(false);
  });

  it('stores whole milliseconds within the episode', () => {
    expect(storedPositionMs(12.3456, 60_000)).toBe(12_346);
    expect(storedPositionMs(9_999, 60_000)).toBe(60_000);
    expect(storedPositionMs(9_999, null)).toBe(9_999_000);
  });
});
