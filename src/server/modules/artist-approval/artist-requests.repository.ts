import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, userRoles } from '../../db/schema/index.ts';

export type ArtistRequestsRepository = ReturnType<typeof createArtistRequestsRepository>;
/** Work to do inside the decision's transaction (the user's notice). */
type InTransaction = (tx: Db) => Promise<unknown>;

/** The artist approval queue: pending_artist rows and their decisions. */
export function createArtistRequestsRepository(db: Db) {
  const removePending = async (tx: Db, userId: string) => {
    const removed = await tx
      .delete(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, 'pending_artist')))
      .returning({ userId: userRoles.userId });
    return removed.length > 0;
  };

  return {
    /** Pending requests, oldest first, with the requester's display name. */
    pending() {
      return db
        .select({
          userId: userRoles.userId,
          displayName: profiles.displayName,
          requestedAt: userRoles.createdAt,
        })
        .from(userRoles)
        .leftJoin(profiles, eq(profiles.userId, userRoles.userId))
        .where(eq(userRoles.role, 'pending_artist'))
        .orderBy(asc(userRoles.createdAt));
    },

    /** pending_artist → artist, then `andThen` in the same transaction; false if not pending. */
    approve(userId: string, andThen: InTransaction): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await removePending(tx as unknown as Db, userId))) return false;
        await tx.insert(userRoles).values({ userId, role: 'artist' }).onConflictDoNothing();
        await andThen(tx as unknown as Db);
        return true;
      });
    },

    /** Deletes pending_artist (spec §4), then `andThen` in the same transaction; false if not pending. */
    reject(userId: string, andThen: InTransaction): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await removePending(tx as unknown as Db, userId))) return false;
        await andThen(tx as unknown as Db);
        return true;
      });
    },
  };
}
