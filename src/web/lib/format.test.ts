import { describe, expect, it } from 'vitest';
import { formatBytes, formatTime } from './format.ts';

describe('formatTime', () => {
  it('writes m:ss', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(9.9)).toBe('0:09');
    expect(formatTime(61)).toBe('1:01');
    expect(formatTime(3600)).toBe('60:00');
  });
  it('reads unknown or negative times as 0:00', () => {
    expect(formatTime(Number.NaN)).toBe('0:00');
    expect(formatTime(Infinity)).toBe('0:00');
    expect(formatTime(-4)).toBe('0:00');
  });
});

describe('formatBytes', () => {
  it('picks a unit', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(441_044)).toBe('431 KB');
    expect(formatBytes(12.5 * 1024 * 1024)).toBe('13 MB');
  });
});
