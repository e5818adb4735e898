import { decodeJwt } from 'jose';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { nextAal as reachableAal } from '../../../core/auth/aal.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  decideRefresh,
  sessionExpiryFrom,
  sessionIsLive,
} from '../../../core/auth/refresh-rotation.ts';
import type { AuthSession, SessionInfo, SessionUser } from '../../../contracts/auth.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Principal } from '../../http/access-policy.ts';
import type { RolesModule } from '../roles/roles.module.ts';
import type { SessionAccessCache } from './session-access-cache.ts';
import type { SessionRow, SessionsRepository } from './sessions.repository.ts';
import type { UsersRepository } from './users.repository.ts';
import type { KeyStore } from '../../security/keys.ts';
import { newOpaqueToken, tokenHash } from '../../security/tokens.ts';
import { isDatabaseUnavailable } from '../../db/database-outage.ts';

export type SessionsService = ReturnType<typeof createSessionsService>;
/** What resolving an access token reads: the session row and its user's factor flag. */
export type AccessRow = SessionRow & { hasVerifiedFactor: boolean };

const expired = () =>
  new AppError(ErrorCode.sessionExpired, 'Session expired. Please sign in again.');

export function createSessionsService(deps: {
  sessions: SessionsRepository;
  users: UsersRepository;
  roles: RolesModule;
  keys: KeyStore;
  /** Access tokens name this service as issuer and audience (`iss`, `aud`). */
  issuer: string;
  audience: string;
  /** A session ends this long after sign-in, however often it is refreshed. */
  maxLifetimeMs: number;
  clock: Clock;
  /** Sessions behind access tokens, held briefly; forgotten after every write here. */
  cache: SessionAccessCache<AccessRow>;
}) {
  const { sessions, users, roles, keys, clock, maxLifetimeMs, cache } = deps;
  const tokenScope = { issuer: deps.issuer, audience: deps.audience };

  async function userOf(userId: string): Promise<SessionUser | null> {
    const [user, userRoles] = await Promise.all([users.findById(userId), roles.rolesOf(userId)]);
    if (!user) return null;
    return {
      id: user.id,
      email: user.email,
      display_name: user.displayName,
      email_verified: user.emailVerifiedAt !== null,
      roles: userRoles,
    };
  }

  async function nextAal(userId: string): Promise<'aal1' | 'aal2'> {
    return reachableAal(await users.hasVerifiedFactor(userId));
  }

  /** Access token for the session's current level, plus the refresh token just stored. */
  async function credentials(session: SessionRow, refreshToken: string): Promise<AuthSession> {
    const issuedAt = Math.floor(clock.now().getTime() / 1000);
    const expiresAt = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
    const [accessToken, user, next, returning] = await Promise.all([
      keys.sign(
        { sub: session.userId, sid: session.id, aal: session.aal },
        { ...tokenScope, issuedAt, expiresAt },
      ),
      userOf(session.userId),
      nextAal(session.userId),
      sessions.isReturning(session.id),
    ]);
    if (!user) throw expired();
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_at: expiresAt,
      aal: session.aal,
      next_aal: next,
      returning,
      user,
    };
  }

  return {
    userOf,
    nextAal,

    async start(
      userId: string,
      meta: { ip: string | null; userAgent: string | null },
    ): Promise<AuthSession> {
      const now = clock.now();
      const refreshToken = newOpaqueToken();
      const session = await sessions.create({
        userId,
        tokenHash: tokenHash(refreshToken),
        now,
        expiresAt: sessionExpiryFrom(now, now, maxLifetimeMs),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
      });
      return credentials(session, refreshToken);
    },

    /**
     * Exchanges a refresh token. Shown again within the reuse interval, an exchanged one gets
     * a token of the family's current generation (a retry or a second tab, not a thief);
     * later, it revokes the whole family.
     */
    async refresh(presented: string): Promise<AuthSession> {
      const now = clock.now();
      const next = newOpaqueToken();
      const result = await sessions.exchange({
        tokenHash: tokenHash(presented),
        newTokenHash: tokenHash(next),
        now,
        expiresAt: (session) => sessionExpiryFrom(now, session.createdAt, maxLifetimeMs),
        decide: (token, session) => decideRefresh(token, session, now, maxLifetimeMs),
      });
      if (result.outcome === 'reused') {
        cache.forgetUser(result.userId);
        throw new AppError(
          ErrorCode.refreshReused,
          'Refresh token already used. Please sign in again.',
        );
      }
      if (result.outcome !== 'rotated' && result.outcome !== 'reissued') throw expired();
      // Nothing to forget: a refresh only moves expires_at, and no held row outlives its own.
      return credentials(result.session, next);
    },

    /** Raises the session to aal2 and hands out a new access and refresh token for it. */
    async elevate(sessionId: string): Promise<AuthSession> {
      const next = newOpaqueToken();
      const session = await sessions.elevate({
        sessionId,
        newTokenHash: tokenHash(next),
        now: clock.now(),
      });
      if (!session) throw expired();
      cache.forgetUser(session.userId);
      return credentials(session, next);
    },

    /** Revokes the session behind an access principal or a refresh token, when there is one. */
    async signOut(input: {
      principal: Principal | null;
      refreshToken: string | undefined;
    }): Promise<void> {
      const now = clock.now();
      if (input.principal) {
        await sessions.revoke(input.principal.sessionId, 'sign_out', now);
        cache.forgetUser(input.principal.userId);
      }
      if (input.refreshToken) {
        const found = await sessions.findByRefreshHash(tokenHash(input.refreshToken));
        if (found) {
          await sessions.revoke(found.session.id, 'sign_out', now);
          cache.forgetUser(found.session.userId);
        }
      }
    },

    async revokeAllForUser(userId: string, reason: string): Promise<void> {
      await sessions.revokeAllForUser(userId, reason, clock.now());
      cache.forgetUser(userId);
    },

    /**
     * A valid signature, issuer and audience, unexpired, and a live session of the same user.
     * The level is the session row's, not the token's claim: a token outlives nothing.
     */
    async resolvePrincipal(accessToken: string): Promise<Principal | null> {
      const now = clock.now();
      const claims = await keys.verify(accessToken, { ...tokenScope, now });
      if (!claims || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
      // A sid the table cannot hold is no session; a database that cannot answer is an outage
      // (503), never a signed-out caller.
      const sid = claims.sid;
      const session = await cache
        .through(sid, now.getTime(), () => sessions.findForAccess(sid))
        .catch((error: unknown) => {
          if (isDatabaseUnavailable(error)) throw error;
          return null;
        });
      if (!session || session.userId !== claims.sub || !sessionIsLive(session, now, maxLifetimeMs))
        return null;
      return {
        userId: session.userId,
        sessionId: session.id,
        aal: session.aal,
        hasVerifiedFactor: session.hasVerifiedFactor,
      };
    },

    /** GET /session: expires_at is the presented access token's own expiry. */
    async info(principal: Principal, accessToken: string): Promise<SessionInfo> {
      const [user, returning] = await Promise.all([
        userOf(principal.userId),
        sessions.isReturning(principal.sessionId),
      ]);
      if (!user) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
      const exp = decodeJwt(accessToken).exp ?? 0;
      return {
        user,
        aal: principal.aal,
        next_aal: reachableAal(principal.hasVerifiedFactor),
        returning,
        expires_at: exp,
      };
    },
  };
}
