import { describe, expect, it } from 'vitest';
import {
  barPercent,
  countOf,
  dayFull,
  dayShort,
  formatListened,
  formatPercent,
  hasActivity,
  playedAgo,
} from './listening-format.ts';

describe('figures', () => {
  it('counts with the right noun', () => {
    expect(countOf(0, 'stream')).toBe('0 streams');
    expect(countOf(1, 'stream')).toBe('1 stream');
    expect(countOf(1234, 'play')).toBe('1,234 plays');
  });

  it('time listened: under an hour in minutes, else hours with two decimals; percent one', () => {
    expect(formatListened(0.75)).toBe('45 min');
    expect(formatListened(0.25)).toBe('15 min');
    expect(formatListened(0.999)).toBe('59 min');
    expect(formatListened(0.001)).toBe('< 1 min');
    expect(formatListened(0)).toBe('0 min');
    expect(formatListened(1)).toBe('1 hour');
    expect(formatListened(12.5)).toBe('12.5 hours');
    expect(formatListened(1024)).toBe('1,024 hours');
    expect(formatPercent(87.5)).toBe('87.5%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
  });
});

describe('barPercent', () => {
  it('is relative to the largest value', () => {
    expect(barPercent(10, 10)).toBe(100);
    expect(barPercent(5, 10)).toBe(50);
    expect(barPercent(3, 12)).toBe(25);
  });

  it('shows a sliver for a small non-zero value and nothing for zero', () => {
    expect(barPercent(1, 1000)).toBe(2);
    expect(barPercent(0, 10)).toBe(0);
  });

  it('is zero when there is no maximum, and never above 100', () => {
    expect(barPercent(5, 0)).toBe(0);
    expect(barPercent(20, 10)).toBe(100);
  });
});

describe('hasActivity', () => {
  it('needs one day with a stream', () => {
    expect(hasActivity([])).toBe(false);
    expect(hasActivity([{ streams: 0 }, { streams: 0 }])).toBe(false);
    expect(hasActivity([{ streams: 0 }, { streams: 2 }])).toBe(true);
  });
});

describe('days', () => {
  it('reads a UTC calendar day whatever the local time zone', () => {
    expect(dayShort('2025-03-03')).toBe('Mon');
    expect(dayFull('2025-03-03')).toBe('Monday, March 3');
    expect(dayShort('not a date')).toBe('not a date');
  });
});

describe('playedAgo', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  const before = (ms: number) => new Date(now - ms).toISOString();

  it('says how long ago, as people do', () => {
    expect(playedAgo(before(10_000), now)).toBe('just now');
    expect(playedAgo(before(60_000), now)).toBe('1 minute ago');
    expect(playedAgo(before(5 * 60_000), now)).toBe('5 minutes ago');
    expect(playedAgo(before(3 * 3_600_000), now)).toBe('3 hours ago');
    expect(playedAgo(before(26 * 3_600_000), now)).toBe('yesterday');
    expect(playedAgo(before(3 * 86_400_000), now)).toBe('3 days ago');
  });

  it('gives the date after a week, and nothing for a bad timestamp', () => {
    expect(playedAgo('2025-02-01T12:00:00Z', now)).toMatch(/^Feb 1, 2025/);
    expect(playedAgo('nope', now)).toBe('');
  });

  it('a clock slightly behind the server still reads just now', () => {
    expect(playedAgo(new Date(now + 5_000).toISOString(), now)).toBe('just now');
  });
});
