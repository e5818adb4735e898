import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, profiles, userRoles } from '../../db/schema/index.ts';

export type ArtistRequestsRepository = ReturnType<typeof createArtistRequestsRepository>;
type Note = { title: string; message: string; link: string | null };

/** The artist approval queue: pending_artist rows and their decisions, each with its notice. */
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

    /** pending_artist → artist and the user's notice, in one transaction; false if not pending. */
    approve(userId: string, note: Note): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await removePending(tx as unknown as Db, userId))) return false;
        await tx.insert(userRoles).values({ userId, role: 'artist' }).onConflictDoNothing();
        await tx.insert(notifications).values({ userId, type: 'artist_approved', ...note });
        return true;
      });
    },

    /** Deletes pending_artist (spec §4) and notifies, in one transaction; false if not pending. */
    reject(userId: string, note: Note): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await removePending(tx as unknown as Db, userId))) return false;
        await tx.insert(notifications).values({ userId, type: 'artist_rejected', ...note });
        return true;
      });
    },
  };
}
