import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_TTL_MS,
  challengeState,
  mayEnrolFactor,
  mayRemoveFactor,
  needsStepUp,
  nextAal,
} from './aal.ts';

describe('assurance levels', () => {
  it('reaches aal2 only with a verified factor', () => {
    expect(nextAal(false)).toBe('aal1');
    expect(nextAal(true)).toBe('aal2');
  });

  it('asks for a step-up only from an aal1 session of an enrolled user', () => {
    expect(needsStepUp('aal1', true)).toBe(true);
    expect(needsStepUp('aal1', false)).toBe(false);
    expect(needsStepUp('aal2', true)).toBe(false);
    expect(needsStepUp('aal2', false)).toBe(false);
  });

  it('lets a password-only session enrol a first factor, not a second one', () => {
    expect(mayEnrolFactor('aal1', false)).toBe(true);
    expect(mayEnrolFactor('aal1', true)).toBe(false);
    expect(mayEnrolFactor('aal2', true)).toBe(true);
  });

  it('removes a verified factor only from an aal2 session', () => {
    expect(mayRemoveFactor('aal1', 'unverified')).toBe(true);
    expect(mayRemoveFactor('aal1', 'verified')).toBe(false);
    expect(mayRemoveFactor('aal2', 'verified')).toBe(true);
  });
});

describe('challenges', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const expiresAt = new Date(created.getTime() + CHALLENGE_TTL_MS);

  it('is open for five minutes, then expired', () => {
    expect(challengeState({ expiresAt, verifiedAt: null }, created)).toBe('open');
    expect(challengeState({ expiresAt, verifiedAt: null }, new Date(expiresAt.getTime() - 1))).toBe(
      'open',
    );
    expect(challengeState({ expiresAt, verifiedAt: null }, expiresAt)).toBe('expired');
  });

  it('is single use', () => {
    expect(challengeState({ expiresAt, verifiedAt: created }, created)).toBe('used');
  });
});
