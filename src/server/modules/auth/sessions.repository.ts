import { and, desc, eq, exists, inArray, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { RefreshDecision } from '../../../core/auth/refresh-rotation.ts';
import type { Db } from '../../db/client.ts';
import { mfaFactors, refreshTokens, sessions } from '../../db/schema/index.ts';

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;

export type SessionRow = {
  id: string;
  userId: string;
  aal: 'aal1' | 'aal2';
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

export type RefreshTokenRow = { id: string; sessionId: string; rotatedAt: Date | null };

const sessionColumns = {
  id: sessions.id,
  userId: sessions.userId,
  aal: sessions.aal,
  createdAt: sessions.createdAt,
  expiresAt: sessions.expiresAt,
  revokedAt: sessions.revokedAt,
};

/** A session is a refresh-token family; each refresh token row stores only a SHA-256. */
export function createSessionsRepository(db: Db) {
  // Every authenticated request runs this lookup: built once, and on a PostgreSQL server a
  // named statement each connection parses and plans once (its text never changes).
  const forAccess = db
    .select({
      ...sessionColumns,
      hasVerifiedFactor: exists(
        db
          .select({ one: mfaFactors.id })
          .from(mfaFactors)
          .where(and(eq(mfaFactors.userId, sessions.userId), eq(mfaFactors.status, 'verified'))),
      ).mapWith(Boolean),
    })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('canto_session_for_access');
  return {
    /** A new session with its first refresh token. */
    async create(input: {
      userId: string;
      tokenHash: string;
      now: Date;
      expiresAt: Date;
      ip: string | null;
      userAgent: string | null;
    }): Promise<SessionRow> {
      return db.transaction(async (tx) => {
        const [session] = await tx
          .insert(sessions)
          .values({
            userId: input.userId,
            createdAt: input.now,
            expiresAt: input.expiresAt,
            ip: input.ip,
            userAgent: input.userAgent,
          })
          .returning(sessionColumns);
        await tx
          .insert(refreshTokens)
          .values({ sessionId: session!.id, tokenHash: input.tokenHash, createdAt: input.now });
        return session!;
      });
    },

    /**
     * The session behind an access token, and whether its user has a verified factor (what
     * the aal2 rule needs on every request): one primary-key lookup with an indexed EXISTS.
     */
    async findForAccess(id: string): Promise<(SessionRow & { hasVerifiedFactor: boolean }) | null> {
      const [row] = await forAccess.execute({ id });
      return row ?? null;
    },

    async findByRefreshHash(
      tokenHash: string,
    ): Promise<{ token: RefreshTokenRow; session: SessionRow } | null> {
      const [row] = await db
        .select({
          token: {
            id: refreshTokens.id,
            sessionId: refreshTokens.sessionId,
            rotatedAt: refreshTokens.rotatedAt,
          },
          session: sessionColumns,
        })
        .from(refreshTokens)
        .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row ?? null;
    },

    /**
     * Exchanges a refresh token inside one transaction that first locks its family (the
     * session row, FOR UPDATE): concurrent exchanges of one family queue there, and each reads
     * the token as the previous one committed it, so the rule sees the truth. `decide` is that
     * rule (core/auth/refresh-rotation.ts); this applies its answer:
     * - valid: retire the family's live generation (the token and any sibling reissued beside
     *   it) and insert the one child;
     * - reissue: insert a sibling of the live generation (same parent), as valid as it: only
     *   hashes are stored, so the live token itself cannot be handed out again. The next
     *   exchange of any of them retires them all, so the family never forks;
     * - reused: revoke the family.
     * Lock order (session row, then its tokens) matches `elevate` and `revoke`.
     */
    async exchange(input: {
      tokenHash: string;
      newTokenHash: string;
      now: Date;
      /** The new sliding expiry; it depends on the session (its absolute lifetime). */
      expiresAt: (session: SessionRow) => Date;
      decide: (token: { rotatedAt: Date | null }, session: SessionRow) => RefreshDecision;
    }): Promise<
      | { outcome: 'rotated' | 'reissued'; session: SessionRow }
      | { outcome: 'reused'; userId: string }
      | { outcome: 'revoked' | 'expired' | 'unknown' }
    > {
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({ id: refreshTokens.id, sessionId: refreshTokens.sessionId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, input.tokenHash))
          .limit(1);
        if (!found) return { outcome: 'unknown' as const };
        const [session] = await tx
          .select(sessionColumns)
          .from(sessions)
          .where(eq(sessions.id, found.sessionId))
          .for('update');
        if (!session) return { outcome: 'unknown' as const };
        // Read after the lock: a concurrent exchange may have rotated it while we waited.
        const [token] = await tx
          .select({ rotatedAt: refreshTokens.rotatedAt })
          .from(refreshTokens)
          .where(eq(refreshTokens.id, found.id));
        const decision = input.decide(token!, session);
        if (decision === 'revoked' || decision === 'expired') return { outcome: decision };
        if (decision === 'reused') {
          await tx
            .update(sessions)
            .set({ revokedAt: input.now, revokedReason: 'refresh_token_reuse' })
            .where(eq(sessions.id, session.id));
          return { outcome: 'reused' as const, userId: session.userId };
        }
        let parentId: string | null = found.id;
        if (decision === 'valid') {
          await tx
            .update(refreshTokens)
            .set({ rotatedAt: input.now })
            .where(and(eq(refreshTokens.sessionId, session.id), isNull(refreshTokens.rotatedAt)));
        } else {
          const [live] = await tx
            .select({ parentId: refreshTokens.parentId })
            .from(refreshTokens)
            .where(and(eq(refreshTokens.sessionId, session.id), isNull(refreshTokens.rotatedAt)))
            .orderBy(desc(refreshTokens.createdAt))
            .limit(1);
          if (live) parentId = live.parentId;
        }
        await tx.insert(refreshTokens).values({
          sessionId: session.id,
          tokenHash: input.newTokenHash,
          parentId,
          createdAt: input.now,
        });
        const [refreshed] = await tx
          .update(sessions)
          .set({ refreshedAt: input.now, expiresAt: input.expiresAt(session) })
          .where(eq(sessions.id, session.id))
          .returning(sessionColumns);
        return {
          outcome: decision === 'valid' ? ('rotated' as const) : ('reissued' as const),
          session: refreshed!,
        };
      });
    },

    /**
     * Raises a live session to aal2 and replaces its current refresh token (the caller sends
     * the new one to the client). Null when the session is revoked or expired.
     */
    async elevate(input: {
      sessionId: string;
      newTokenHash: string;
      now: Date;
    }): Promise<SessionRow | null> {
      return db.transaction(async (tx) => {
        const [session] = await tx
          .update(sessions)
          .set({ aal: 'aal2', refreshedAt: input.now })
          .where(and(eq(sessions.id, input.sessionId), isNull(sessions.revokedAt)))
          .returning(sessionColumns);
        if (!session || session.expiresAt.getTime() <= input.now.getTime()) return null;
        const [current] = await tx
          .update(refreshTokens)
          .set({ rotatedAt: input.now })
          .where(and(eq(refreshTokens.sessionId, input.sessionId), isNull(refreshTokens.rotatedAt)))
          .returning({ id: refreshTokens.id });
        await tx.insert(refreshTokens).values({
          sessionId: input.sessionId,
          tokenHash: input.newTokenHash,
          parentId: current?.id ?? null,
          createdAt: input.now,
        });
        return session;
      });
    },

    /**
     * Whether the account had a session before this one (sessions are never deleted): false
     * only in the first, the one sign-up opened (or an operator-made account's first sign-in).
     */
    async isReturning(sessionId: string): Promise<boolean> {
      const current = alias(sessions, 'current');
      const [row] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(
          current,
          and(
            eq(current.id, sessionId),
            eq(sessions.userId, current.userId),
            lt(sessions.createdAt, current.createdAt),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Those of `ids` whose session has not ended early (it exists and is not revoked). */
    async openAmong(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(inArray(sessions.id, ids), isNull(sessions.revokedAt)));
      return rows.map((r) => r.id);
    },

    async revoke(sessionId: string, reason: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now, revokedReason: reason })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    async revokeAllForUser(userId: string, reason: string, now: Date): Promise<number> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now, revokedReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length;
    },
  };
}
