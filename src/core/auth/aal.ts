// Authenticator assurance levels (NIST SP 800-63B): aal1 = password, aal2 = password + a
// verified second factor. Pure rules shared by the auth module, the MFA routes and the web app.

export type Aal = 'aal1' | 'aal2';
export type FactorStatus = 'unverified' | 'verified';

/** The level a session could reach: aal2 as soon as the user has one verified factor. */
export function nextAal(hasVerifiedFactor: boolean): Aal {
  return hasVerifiedFactor ? 'aal2' : 'aal1';
}

/** Whether the session must pass a factor challenge before a guarded action. */
export function needsStepUp(current: Aal, hasVerifiedFactor: boolean): boolean {
  return current === 'aal1' && nextAal(hasVerifiedFactor) === 'aal2';
}

/**
 * Adding a factor is itself guarded once the account has one: otherwise a password alone
 * could enrol (and verify) a new factor and so reach aal2 without the existing one.
 */
export function mayEnrolFactor(current: Aal, hasVerifiedFactor: boolean): boolean {
  return !needsStepUp(current, hasVerifiedFactor);
}

/** Removing a verified factor lowers the account's assurance; it takes an aal2 session. */
export function mayRemoveFactor(current: Aal, status: FactorStatus): boolean {
  return status === 'unverified' || current === 'aal2';
}

export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengeState = 'open' | 'expired' | 'used';

/** A challenge is single use and lives five minutes. */
export function challengeState(
  challenge: { expiresAt: Date; verifiedAt: Date | null },
  now: Date,
): ChallengeState {
  if (challenge.verifiedAt) return 'used';
  if (challenge.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/**
 * Verify attempts per factor: this many within the window, then 429 until it ends (the
 * server's shared rate limiter counts them per factor).
 */
export const VERIFY_ATTEMPTS = { max: 5, windowMs: 5 * 60_000 } as const;
