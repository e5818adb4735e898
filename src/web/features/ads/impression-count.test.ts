import { describe, expect, it } from 'vitest';
import { impressionCountText } from './impression-count.ts';

describe("an ad's impressions on the admin inventory", () => {
  it('says impression for one and impressions for any other number', () => {
    expect(impressionCountText(1, 1)).toBe('1 impression · 1 in the last 30 days');
    expect(impressionCountText(0, 0)).toBe('0 impressions · 0 in the last 30 days');
    expect(impressionCountText(2, 0)).toBe('2 impressions · 0 in the last 30 days');
  });

  it("groups thousands with the locale's separator", () => {
    expect(impressionCountText(1234, 56)).toBe('1,234 impressions · 56 in the last 30 days');
    expect(impressionCountText(1_234_567, 8_901)).toBe(
      '1,234,567 impressions · 8,901 in the last 30 days',
    );
    expect(impressionCountText(1234, 1000, 'de-DE')).toBe(
      '1.234 impressions · 1.000 in the last 30 days',
    );
  });
});
