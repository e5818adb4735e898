import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mfaFactors, profiles, users } from '../../db/schema/index.ts';

export type UsersRepository = ReturnType<typeof createUsersRepository>;

export type UserRecord = {
  id: string;
  email: string;
  displayName: string | null;
  emailVerifiedAt: Date | null;
};

export function createUsersRepository(db: Db) {
  return {
    /**
     * The account, then `withAccount` (its rows in other modules: profile, role) in the same
     * transaction: all of them or none. Returns null when the email is taken.
     */
    async create(
      input: { email: string; passwordHash: string },
      withAccount: (userId: string, tx: Db) => Promise<void>,
    ): Promise<{ id: string } | null> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ email: input.email, passwordHash: input.passwordHash })
          .onConflictDoNothing({ target: users.email })
          .returning({ id: users.id });
        if (!user) return null;
        await withAccount(user.id, tx as unknown as Db);
        return user;
      });
    },

    async findCredentialsByEmail(
      email: string,
    ): Promise<{ id: string; passwordHash: string } | null> {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email))
        .limit(1);
      return row ?? null;
    },

    async findById(id: string): Promise<UserRecord | null> {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          displayName: profiles.displayName,
          emailVerifiedAt: users.emailVerifiedAt,
        })
        .from(users)
        .leftJoin(profiles, eq(profiles.userId, users.id))
        .where(eq(users.id, id))
        .limit(1);
      return row ?? null;
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ passwordHash })
        .where(eq(users.id, id))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Sets email_verified_at once; a later verification keeps the first time. */
    async markEmailVerified(id: string, at: Date): Promise<void> {
      await db
        .update(users)
        .set({
          emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at.toISOString()}::timestamptz)`,
        })
        .where(eq(users.id, id));
    },

    async hasVerifiedFactor(userId: string): Promise<boolean> {
      const rows = await db
        .select({ one: sql<number>`1` })
        .from(mfaFactors)
        .where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.status, 'verified')))
        .limit(1);
      return rows.length > 0;
    },
  };
}
