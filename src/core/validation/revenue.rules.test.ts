import { describe, expect, it } from 'vitest';
import { artistTier, monthOf, MONTH_PATTERN, platformFeeCents } from './revenue.rules.ts';

describe('revenue rules', () => {
  it('puts an artist in the tier of the month’s streams, at its edges', () => {
    expect(artistTier(0)).toEqual({ tier: 'small', sharePercent: 80 });
    expect(artistTier(9_999)).toEqual({ tier: 'small', sharePercent: 80 });
    expect(artistTier(10_000)).toEqual({ tier: 'medium', sharePercent: 75 });
    expect(artistTier(99_999)).toEqual({ tier: 'medium', sharePercent: 75 });
    expect(artistTier(100_000)).toEqual({ tier: 'large', sharePercent: 70 });
  });

  it('takes 5 % rounded half up', () => {
    expect(platformFeeCents(999n)).toBe(50n); // 49.95 → 50
    expect(platformFeeCents(10n)).toBe(1n); // 0.5 → 1
    expect(platformFeeCents(9n)).toBe(0n); // 0.45 → 0
    expect(platformFeeCents(30n)).toBe(2n); // 1.5 → 2
    expect(platformFeeCents(0n)).toBe(0n);
  });

  it('names UTC months', () => {
    expect(monthOf(new Date('2026-10-31T23:59:59.999Z'))).toBe('2026-10');
    expect(MONTH_PATTERN.test('2026-13')).toBe(false);
    expect(MONTH_PATTERN.test('2026-01')).toBe(true);
  });
});
