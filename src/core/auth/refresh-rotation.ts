// Refresh-token rotation rules (product.md §2): pure decisions, time passed in.

/** Access tokens are short-lived; the refresh token keeps the session going. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A session (refresh family) lives this long after its last refresh. */
export const SESSION_IDLE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type RefreshTokenState = { rotatedAt: Date | null };
export type SessionState = { revokedAt: Date | null; expiresAt: Date };

/**
 * - valid: exchange it for a new token of the same family.
 * - reused: it was already exchanged; someone holds a copy, so the whole family is revoked.
 * - revoked / expired: the family is over; nothing to revoke.
 */
export type RefreshDecision = 'valid' | 'reused' | 'revoked' | 'expired';

export function decideRefresh(
  token: RefreshTokenState,
  session: SessionState,
  now: Date,
): RefreshDecision {
  // A family already revoked stays dead whatever token of it is shown.
  if (session.revokedAt) return 'revoked';
  if (session.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (token.rotatedAt) return 'reused';
  return 'valid';
}

/** Sliding expiry: each successful refresh extends the session. */
export function sessionExpiryFrom(now: Date): Date {
  return new Date(now.getTime() + SESSION_IDLE_TTL_MS);
}

/** Whether a session may still back an access token at `now`. */
export function sessionIsLive(session: SessionState, now: Date): boolean {
  return !session.revokedAt && session.expiresAt.getTime() > now.getTime();
}
