import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.ts';
import type { Principal } from './access-policy.ts';
import { requireAal2IfEnrolled } from './require-aal2.ts';

const principal = (aal: Principal['aal'], hasVerifiedFactor: boolean): Principal => ({
  userId: 'u1',
  sessionId: 's1',
  aal,
  hasVerifiedFactor,
});

describe('requireAal2IfEnrolled', () => {
  it('refuses an aal1 session of a user with a verified factor: insufficient_aal, next_aal aal2', () => {
    let error: unknown;
    try {
      requireAal2IfEnrolled(principal('aal1', true));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'insufficient_aal', details: { next_aal: 'aal2' } });
  });

  it('lets an aal2 session through', () => {
    expect(() => requireAal2IfEnrolled(principal('aal2', true))).not.toThrow();
  });

  it('lets a user without a verified factor through at aal1', () => {
    expect(() => requireAal2IfEnrolled(principal('aal1', false))).not.toThrow();
  });
});
