import { describe, expect, it } from 'vitest';
import { clockStopped, clockTicked, freshClock, listenedMs } from './listened-time.ts';

const ticks = (positions: number[], clock = freshClock) =>
  positions.reduce((c, p) => clockTicked(c, p), clock);

describe('listened time', () => {
  it('adds the forward steps of the position while playing', () => {
    expect(listenedMs(ticks([0, 0.25, 0.5, 0.75, 1]))).toBe(1000);
    // Counting starts at the first tick, wherever that is (a restored position).
    expect(listenedMs(ticks([40, 40.25, 41]))).toBe(1000);
  });

  it('counts what was heard, not the position: a seek forward adds nothing', () => {
    let c = ticks([0, 1, 2]);
    c = clockStopped(c); // the seek
    c = ticks([50, 51], c);
    expect(listenedMs(c)).toBe(3000);
  });

  it('a part heard twice counts twice; a seek back takes nothing away', () => {
    let c = ticks([0, 1, 2, 3]);
    c = clockStopped(c);
    c = ticks([1, 2, 3], c);
    expect(listenedMs(c)).toBe(5000);
  });

  it('a pause splits the count: the time paused is not heard', () => {
    let c = ticks([0, 2]);
    c = clockStopped(c);
    c = ticks([2, 4], c);
    expect(listenedMs(c)).toBe(4000);
  });

  it('ignores jumps that are not listening, backward steps and nonsense', () => {
    // A jump of 30 s between two ticks without a stop is not 30 s heard.
    expect(listenedMs(ticks([0, 1, 31, 32]))).toBe(2000);
    expect(listenedMs(ticks([5, 3, 4]))).toBe(1000);
    expect(listenedMs(ticks([0, Number.NaN, 1, -2, 2]))).toBe(2000);
  });

  it('reports whole milliseconds', () => {
    expect(listenedMs(ticks([0, 0.2504]))).toBe(250);
  });
});
