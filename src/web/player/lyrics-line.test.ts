import { describe, expect, it } from 'vitest';
import { currentLyricIndex } from './lyrics-line.ts';

const lines = [1000, 4500, 4500, 8000].map((time_ms) => ({ time_ms }));

describe('the current lyrics line', () => {
  it('is none before the first time, then the last line whose time has come', () => {
    expect(currentLyricIndex(lines, 0)).toBe(-1);
    expect(currentLyricIndex(lines, 999)).toBe(-1);
    expect(currentLyricIndex(lines, 1000)).toBe(0);
    expect(currentLyricIndex(lines, 4499)).toBe(0);
    // Two lines at one time: the later of them.
    expect(currentLyricIndex(lines, 4500)).toBe(2);
    expect(currentLyricIndex(lines, 60_000)).toBe(3);
    expect(currentLyricIndex([], 5000)).toBe(-1);
  });
});
