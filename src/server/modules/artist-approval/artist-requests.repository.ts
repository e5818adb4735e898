import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, userRoles } from '../../db/schema/index.ts';

export type ArtistRequestsRepository = ReturnType<typeof createArtistRequestsRepository>;

/**
 * The artist approval queue: the pending_artist rows, read. Decisions change roles through
 * the roles module, the only writer of user_roles (docs/decisions/0024), in a transaction
 * opened here.
 */
export function createArtistRequestsRepository(db: Db) {
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

    /** Runs a decision's writes (the role change, the user's notice) as one transaction. */
    decide<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx as unknown as Db));
    },
  };
}
