import { describe, expect, it } from 'vitest';
import { addMonths, formatUsd, PREMIUM_PRICE_CENTS, PREMIUM_PRICE_LABEL } from './premium.rules.ts';

const at = (iso: string) => new Date(iso);

describe('premium rules', () => {
  it('prices premium at $9.99 per month (spec §9)', () => {
    expect(PREMIUM_PRICE_CENTS).toBe(999);
    expect(PREMIUM_PRICE_LABEL).toBe('$9.99 per month');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(100_000)).toBe('$1000.00');
    expect(formatUsd(-250)).toBe('-$2.50');
  });

  it('adds calendar months, clamping to the end of a shorter month', () => {
    expect(addMonths(at('2026-01-15T10:30:00.123Z'), 1)).toEqual(at('2026-02-15T10:30:00.123Z'));
    expect(addMonths(at('2026-01-31T08:00:00Z'), 1)).toEqual(at('2026-02-28T08:00:00Z'));
    expect(addMonths(at('2028-01-31T08:00:00Z'), 1)).toEqual(at('2028-02-29T08:00:00Z'));
    expect(addMonths(at('2026-12-20T00:00:00Z'), 1)).toEqual(at('2027-01-20T00:00:00Z'));
    expect(addMonths(at('2026-01-31T08:00:00Z'), 3)).toEqual(at('2026-04-30T08:00:00Z'));
  });
});
