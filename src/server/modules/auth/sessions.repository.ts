import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { refreshTokens, sessions } from '../../db/schema/index.ts';

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;

export type SessionRow = {
  id: string;
  userId: string;
  aal: 'aal1' | 'aal2';
  expiresAt: Date;
  revokedAt: Date | null;
};

export type RefreshTokenRow = { id: string; sessionId: string; rotatedAt: Date | null };

const sessionColumns = {
  id: sessions.id,
  userId: sessions.userId,
  aal: sessions.aal,
  expiresAt: sessions.expiresAt,
  revokedAt: sessions.revokedAt,
};

/** A session is a refresh-token family; each refresh token row stores only a SHA-256. */
export function createSessionsRepository(db: Db) {
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

    /** The session behind an access token: one primary-key lookup. */
    async findById(id: string): Promise<SessionRow | null> {
      const [row] = await db
        .select(sessionColumns)
        .from(sessions)
        .where(eq(sessions.id, id))
        .limit(1);
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
     * Exchanges one refresh token for the next in its family. Race-safe: the conditional
     * update lets exactly one caller win; 'reused' means another caller exchanged it first,
     * 'gone' that the session was revoked or expired meanwhile.
     */
    async rotate(input: {
      tokenId: string;
      sessionId: string;
      newTokenHash: string;
      now: Date;
      expiresAt: Date;
    }): Promise<
      { outcome: 'rotated'; session: SessionRow } | { outcome: 'reused' } | { outcome: 'gone' }
    > {
      return db.transaction(async (tx) => {
        const claimed = await tx
          .update(refreshTokens)
          .set({ rotatedAt: input.now })
          .where(and(eq(refreshTokens.id, input.tokenId), isNull(refreshTokens.rotatedAt)))
          .returning({ id: refreshTokens.id });
        if (claimed.length === 0) return { outcome: 'reused' as const };
        const [session] = await tx
          .update(sessions)
          .set({ refreshedAt: input.now, expiresAt: input.expiresAt })
          .where(and(eq(sessions.id, input.sessionId), isNull(sessions.revokedAt)))
          .returning(sessionColumns);
        if (!session) return { outcome: 'gone' as const };
        await tx.insert(refreshTokens).values({
          sessionId: input.sessionId,
          tokenHash: input.newTokenHash,
          parentId: input.tokenId,
          createdAt: input.now,
        });
        return { outcome: 'rotated' as const, session };
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
