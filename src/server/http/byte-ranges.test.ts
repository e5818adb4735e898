import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideRange,
  ifRangeMatches,
  MAX_RANGE_HEADER,
  noneMatch,
  notModifiedSince,
} from './byte-ranges.ts';

describe('decideRange', () => {
  it.each([
    ['bytes=0-0', 100, { kind: 'partial', start: 0, end: 0 }],
    ['bytes=10-', 100, { kind: 'partial', start: 10, end: 99 }],
    ['bytes=-10', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-500', 100, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=50-5000', 100, { kind: 'partial', start: 50, end: 99 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=-5', 0, { kind: 'unsatisfiable' }],
    [undefined, 100, { kind: 'full' }],
    ['bytes=5-1', 100, { kind: 'full' }],
    ['bytes=0-1,3-4', 100, { kind: 'full' }],
    ['bytes=x', 100, { kind: 'full' }],
    ['pages=1-2', 100, { kind: 'full' }],
    ['bytes=1234567890123456-', 100, { kind: 'full' }],
  ] as const)('%s of %i bytes → %o', (header, size, expected) => {
    expect(decideRange(header, size)).toEqual(expected);
  });

  it('ignores an over-long header without reading it', () => {
    expect(decideRange(`bytes=0-0${' '.repeat(MAX_RANGE_HEADER)}`, 100)).toEqual({ kind: 'full' });
  });

  it('never throws and keeps every partial range inside the file', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(10_000), (tail, size) => {
        const d = decideRange(`bytes=${tail}`, size);
        if (d.kind === 'partial') {
          expect(d.start).toBeGreaterThanOrEqual(0);
          expect(d.end).toBeGreaterThanOrEqual(d.start);
          expect(d.end).toBeLessThan(size);
        }
      }),
    );
  });
});

describe('validators', () => {
  const etag = '"abc"';
  const lm = new Date('2026-01-02T03:04:05.678Z');

  it('If-None-Match compares weakly', () => {
    expect(noneMatch('"abc"', etag)).toBe(true);
    expect(noneMatch('W/"abc"', etag)).toBe(true);
    expect(noneMatch('"x", "abc"', etag)).toBe(true);
    expect(noneMatch('*', etag)).toBe(true);
    expect(noneMatch('"x"', etag)).toBe(false);
    expect(noneMatch(undefined, etag)).toBe(false);
  });

  it('If-Range compares strongly, or by the second for dates', () => {
    expect(ifRangeMatches(undefined, etag, lm)).toBe(true);
    expect(ifRangeMatches('"abc"', etag, lm)).toBe(true);
    expect(ifRangeMatches('W/"abc"', etag, lm)).toBe(false);
    expect(ifRangeMatches(lm.toUTCString(), etag, lm)).toBe(true);
    expect(ifRangeMatches(new Date(lm.getTime() + 2000).toUTCString(), etag, lm)).toBe(false);
    expect(ifRangeMatches('garbage', etag, lm)).toBe(false);
  });

  it('If-Modified-Since works to the second', () => {
    expect(notModifiedSince(lm.toUTCString(), lm)).toBe(true);
    expect(notModifiedSince(new Date(lm.getTime() - 2000).toUTCString(), lm)).toBe(false);
    expect(notModifiedSince('nonsense', lm)).toBe(false);
  });
});
