// Refresh-token rotation rules (docs/decisions/0002): pure decisions, time passed in.

/** Access tokens are short-lived; the refresh token keeps the session going. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** A session (refresh family) lives this long after its last refresh. */
export const SESSION_IDLE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/*
 * Besides, a session ends a fixed time after sign-in however often it is refreshed
 * (SESSION_MAX_LIFETIME_DAYS, read in env.ts): a stolen refresh token, or a device left
 * signed in, does not last forever. The functions below take that lifetime as `maxLifetimeMs`.
 */
/**
 * A refresh token exchanged less than this long ago may be shown again without revoking its
 * family (GoTrue's reuse interval): a mobile client retrying on a flaky network, or two tabs
 * refreshing at once, lost the answer, not the token to a thief. After it, reuse revokes.
 */
export const REFRESH_REUSE_INTERVAL_MS = 10_000;

export type RefreshTokenState = { rotatedAt: Date | null };
export type SessionState = { revokedAt: Date | null; expiresAt: Date; createdAt: Date };

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
  maxLifetimeMs: number,
): RefreshDecision {
  // A family already revoked stays dead whatever token of it is shown.
  if (session.revokedAt) return 'revoked';
  if (sessionEnd(session, maxLifetimeMs) <= now.getTime()) return 'expired';
  if (!token.rotatedAt) return 'valid';
  // Along a chain each token is exchanged before its child, so a token exchanged within the
  // interval has only descendants exchanged within it: following it to the newest is safe.
  // Anything exchanged earlier (a grandparent included) is reuse.
  return now.getTime() - token.rotatedAt.getTime() < REFRESH_REUSE_INTERVAL_MS
    ? 'reissue'
    : 'reused';
}

/**
 * When a session ends (ms): its sliding expiry, or sign-in plus the absolute lifetime if that
 * is sooner. Checking both, not only capping at refresh, also ends older sessions at once
 * when an operator shortens the lifetime.
 */
export function sessionEnd(
  session: Pick<SessionState, 'expiresAt' | 'createdAt'>,
  maxLifetimeMs: number,
): number {
  return Math.min(session.expiresAt.getTime(), session.createdAt.getTime() + maxLifetimeMs);
}

/** Sliding expiry: each successful refresh extends the session, never past its lifetime. */
export function sessionExpiryFrom(now: Date, createdAt: Date, maxLifetimeMs: number): Date {
  return new Date(
    Math.min(now.getTime() + SESSION_IDLE_TTL_MS, createdAt.getTime() + maxLifetimeMs),
  );
}

/** Whether a session may still back an access token at `now`. */
export function sessionIsLive(session: SessionState, now: Date, maxLifetimeMs: number): boolean {
  return !session.revokedAt && sessionEnd(session, maxLifetimeMs) > now.getTime();
}
