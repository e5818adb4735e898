import { describe, expect, it } from 'vitest';
import { episodeState, formatLength } from './podcast-format.ts';

const at = (position: number, completed = false) => ({
  position,
  completed,
  updated_at: '2025-01-01T00:00:00.000Z',
});

describe('episode lengths and states', () => {
  it('lengths read in seconds, minutes, then hours and minutes', () => {
    expect(formatLength(null)).toBeNull();
    expect(formatLength(Number.NaN)).toBeNull();
    expect(formatLength(0.2)).toBe('1 s');
    expect(formatLength(45)).toBe('45 s');
    expect(formatLength(61)).toBe('1 min');
    expect(formatLength(59 * 60 + 40)).toBe('1 h');
    expect(formatLength(3600 + 5 * 60)).toBe('1 h 5 min');
  });

  it('new, in progress with the time left, or played', () => {
    expect(episodeState(null, 1800)).toEqual({ kind: 'new' });
    expect(episodeState(at(0), 1800)).toEqual({ kind: 'new' });
    expect(episodeState(at(600), 1800)).toEqual({
      kind: 'in-progress',
      left: '20 min left',
      fraction: 1 / 3,
    });
    // Played stays played when the listener starts it again.
    expect(episodeState(at(300, true), 1800)).toEqual({ kind: 'played' });
    // A length not known yet (still processing): in progress, nothing to count down.
    expect(episodeState(at(42), null)).toEqual({
      kind: 'in-progress',
      left: null,
      fraction: null,
    });
  });
});
