import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time.ts';
import { reconnectDelayMs } from './use-live-notifications.ts';

describe('notification times', () => {
  const at = Date.parse('2026-05-01T12:00:00Z');
  const ago = (seconds: number) => timeAgo(new Date(at - seconds * 1000).toISOString(), at);

  it("reads as 'x minutes ago' and its kin", () => {
    expect(ago(0)).toBe('less than a minute ago');
    expect(ago(59)).toBe('less than a minute ago');
    expect(ago(60)).toBe('1 minute ago');
    expect(ago(5 * 60 + 30)).toBe('5 minutes ago');
    expect(ago(3600)).toBe('1 hour ago');
    expect(ago(26 * 3600)).toBe('1 day ago');
    expect(ago(3 * 24 * 3600)).toBe('3 days ago');
    expect(ago(65 * 24 * 3600)).toBe('2 months ago');
    expect(ago(800 * 24 * 3600)).toBe('2 years ago');
    // A clock a little behind the server's never says "in the future".
    expect(ago(-30)).toBe('less than a minute ago');
  });
});

describe('live reconnect backoff', () => {
  it('doubles from about 1 s up to 30 s, jittered within the upper half', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => reconnectDelayMs(n, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
    expect(reconnectDelayMs(10, () => 0)).toBe(15_000);
  });
});
