import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authTokens, sessions, users } from '../../db/schema/index.ts';

export type AuthTokensRepository = ReturnType<typeof createAuthTokensRepository>;
export type AuthTokenKind = 'email_verification' | 'password_reset';

type TokenLookup = { kind: AuthTokenKind; tokenHash: string; now: Date };

/** The token, of its kind, unused and unexpired at `now`. */
const live = (input: TokenLookup) =>
  and(
    eq(authTokens.tokenHash, input.tokenHash),
    eq(authTokens.kind, input.kind),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, input.now),
  );

/** Single-use emailed tokens (password reset, email verification), stored as SHA-256. */
export function createAuthTokensRepository(db: Db) {
  return {
    async create(input: {
      userId: string;
      kind: AuthTokenKind;
      tokenHash: string;
      now: Date;
      expiresAt: Date;
    }) {
      await db.insert(authTokens).values({
        userId: input.userId,
        kind: input.kind,
        tokenHash: input.tokenHash,
        createdAt: input.now,
        expiresAt: input.expiresAt,
      });
    },

    /** Whether the token is unused and unexpired; reads only. */
    async isLive(input: { kind: AuthTokenKind; tokenHash: string; now: Date }): Promise<boolean> {
      const [row] = await db.select({ id: authTokens.id }).from(authTokens).where(live(input));
      return row !== undefined;
    },

    /** Marks the token used if it is unused and unexpired; returns its user, else null. */
    async consume(input: {
      kind: AuthTokenKind;
      tokenHash: string;
      now: Date;
    }): Promise<{ userId: string } | null> {
      const [row] = await db
        .update(authTokens)
        .set({ usedAt: input.now })
        .where(live(input))
        .returning({ userId: authTokens.userId });
      return row ?? null;
    },

    /**
     * Spends a password-reset token and the account's other live ones, sets the new hash,
     * marks the email verified (the link reached the mailbox) and revokes every session — all
     * or nothing. Null for a bad token.
     */
    async resetPassword(input: {
      tokenHash: string;
      passwordHash: string;
      now: Date;
    }): Promise<{ userId: string } | null> {
      return db.transaction(async (tx) => {
        const spent = await createAuthTokensRepository(tx as unknown as Db).consume({
          kind: 'password_reset',
          tokenHash: input.tokenHash,
          now: input.now,
        });
        if (!spent) return null;
        // Older links mailed to the same account die with this one: the password they would
        // reset is no longer the one the request was about.
        await tx
          .update(authTokens)
          .set({ usedAt: input.now })
          .where(
            and(
              eq(authTokens.userId, spent.userId),
              eq(authTokens.kind, 'password_reset'),
              isNull(authTokens.usedAt),
            ),
          );
        await tx
          .update(users)
          .set({
            passwordHash: input.passwordHash,
            emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${input.now.toISOString()}::timestamptz)`,
          })
          .where(eq(users.id, spent.userId));
        await tx
          .update(sessions)
          .set({ revokedAt: input.now, revokedReason: 'password_reset' })
          .where(and(eq(sessions.userId, spent.userId), isNull(sessions.revokedAt)));
        return spent;
      });
    },
  };
}
