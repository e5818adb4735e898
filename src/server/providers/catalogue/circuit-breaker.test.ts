import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.ts';

function breaker() {
  let t = 1_000_000;
  const clock = { now: () => new Date(t) };
  const b = new CircuitBreaker({ clock, threshold: 3, coolDownMs: 1000, maxCoolDownMs: 3000 });
  return { b, advance: (ms: number) => void (t += ms) };
}

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, a success in between resets', () => {
    const { b } = breaker();
    expect([b.failed(), b.failed()]).toEqual(['counted', 'counted']);
    b.succeeded();
    expect([b.failed(), b.failed(), b.failed()]).toEqual(['counted', 'counted', 'opened']);
    expect(b.isOpen).toBe(true);
    expect(b.tryAcquire()).toBe(false);
  });

  it('after the cool-down lets exactly one trial through; its failure doubles the wait', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failed();
    advance(999);
    expect(b.tryAcquire()).toBe(false);
    advance(1);
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false); // the trial is still out
    expect(b.failed()).toBe('still-open');
    advance(1999);
    expect(b.tryAcquire()).toBe(false);
    advance(1);
    expect(b.tryAcquire()).toBe(true);
    b.failed();
    advance(3000); // capped at maxCoolDownMs, not 4000
    expect(b.tryAcquire()).toBe(true);
    expect(b.succeeded()).toBe(true);
    expect(b.isOpen).toBe(false);
    expect(b.tryAcquire()).toBe(true);
    expect(b.succeeded()).toBe(false);
  });

  it('a late failure of a call made before the opening does not reopen or extend it', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failed();
    advance(1000);
    expect(b.failed()).toBe('still-open'); // a straggler, not the trial
    expect(b.tryAcquire()).toBe(true);
  });

  it('after recovery the cool-down starts again from its base', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failed();
    advance(1000);
    b.tryAcquire();
    b.failed(); // wait now 2000
    advance(2000);
    b.tryAcquire();
    b.succeeded();
    for (let i = 0; i < 3; i++) b.failed();
    advance(1000);
    expect(b.tryAcquire()).toBe(true);
  });
});
