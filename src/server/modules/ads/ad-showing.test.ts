import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { impressionRefusal, nextShowingAt, SHOWING_TTL_MS } from './ad-showing.ts';

const T0 = Date.UTC(2027, 0, 1);

describe('when a showing’s impression counts', () => {
  it('counts exactly for an active ad, a free listener, from its duration until the hour is up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600_000 }),
        fc.integer({ min: -10_000, max: 2 * SHOWING_TTL_MS }),
        fc.boolean(),
        fc.boolean(),
        (durationMs, elapsed, adActive, premium) => {
          const facts = { issuedAt: new Date(T0), durationMs, adActive, premium };
          const counted = impressionRefusal(facts, new Date(T0 + elapsed)) === null;
          expect(counted).toBe(
            adActive && !premium && elapsed >= durationMs && elapsed < SHOWING_TTL_MS,
          );
        },
      ),
    );
  });

  it('names the first reason: inactive, premium, expired, too early', () => {
    const facts = { issuedAt: new Date(T0), durationMs: 30_000, adActive: true, premium: false };
    const at = (ms: number) => new Date(T0 + ms);
    expect(impressionRefusal({ ...facts, adActive: false, premium: true }, at(0))).toBe(
      'ad-inactive',
    );
    expect(impressionRefusal({ ...facts, premium: true }, at(0))).toBe('premium');
    expect(impressionRefusal(facts, at(29_999))).toBe('too-early');
    expect(impressionRefusal(facts, at(30_000))).toBeNull();
    expect(impressionRefusal(facts, at(SHOWING_TTL_MS - 1))).toBeNull();
    expect(impressionRefusal(facts, at(SHOWING_TTL_MS))).toBe('expired');
  });

  it('lets the next showing come one interval after the last', () => {
    expect(nextShowingAt(new Date(T0), 600).getTime()).toBe(T0 + 600_000);
  });
});
