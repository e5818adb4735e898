// Refresh-token rotation rules (product.md §2): pure decisions, time passed in.

/** Access tokens are short-lived; the refresh token keeps the session going. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A session (refresh family) lives this long after its last refresh. */
export const SESSION_IDLE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A refresh token exchanged less than this long ago may be shown again without revoking its
 * family (GoTrue's reuse interval): a mobile client retrying on a flaky network, or two tabs
 * refreshing at once, lost the answer, not the token to a thief. After it, reuse revokes.
 */
export const REFRESH_REUSE_INTERVAL_MS = 10_000;

export type RefreshTokenState = { rotatedAt: Date | null };
export type SessionState = { revokedAt: Date | null; expiresAt: Date };

/**
 * - valid: exchange it for a new token of the same family.
 * - reissue: it was exchanged less than REFRESH_REUSE_INTERVAL_MS ago; answer with the
 *   family's current generation (however many exchanges followed within the interval),
 *   revoke nothing.
 * - reused: it was exchanged longer ago; someone holds a copy, so the whole family is revoked.
 * - revoked / expired: the family is over; nothing to revoke.
 */
export type RefreshDecision = 'valid' | 'reissue' | 'reused' | 'revoked' | 'expired';

export function decideRefresh(
  token: RefreshTokenState,
  session: SessionState,
  now: Date,
): RefreshDecision {
  // A family already revoked stays dead whatever token of it is shown.
  if (session.revokedAt) return 'revoked';
  if (session.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (!token.rotatedAt) return 'valid';
  // Along a chain each token is exchanged before its child, so a token exchanged within the
  // interval has only descendants exchanged within it: following it to the newest is safe.
  // Anything exchanged earlier (a grandparent included) is reuse.
  return now.getTime() - token.rotatedAt.getTime() < REFRESH_REUSE_INTERVAL_MS
    ? 'reissue'
    : 'reused';
}

/** Sliding expiry: each successful refresh extends the session. */
export function sessionExpiryFrom(now: Date): Date {
  return new Date(now.getTime() + SESSION_IDLE_TTL_MS);
}

/** Whether a session may still back an access token at `now`. */
export function sessionIsLive(session: SessionState, now: Date): boolean {
  return !session.revokedAt && session.expiresAt.getTime() > now.getTime();
}
