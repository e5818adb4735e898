import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, songs, users } from '../../db/schema/index.ts';
import { afterPosition, positionOf } from './keyset.repository.ts';
import type { Position } from './list-position.ts';

export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;

export type ProfileRow = {
  userId: string;
  displayName: string | null;
  bio: string | null;
  avatarUrl: string | null;
  memberSince: Date;
  followerCount: number;
  followingCount: number;
  isFollowing: boolean;
  isArtist: boolean;
  songCount: number;
  totalPlays: number;
};

/**
 * profiles rows and what a profile page shows about them. Every count is a correlated
 * subquery on an index range (user_follows_following_idx, user_follows_pair_key,
 * songs_artist_created_idx): one statement, nothing summed in JavaScript.
 */
export function createProfilesRepository(db: Db) {
  return {
    /** The profile of `userId` as `viewerId` sees it; null when there is none. */
    async find(viewerId: string, userId: string): Promise<ProfileRow | null> {
      const [row] = await db
        .select({
          userId: profiles.userId,
          displayName: profiles.displayName,
          bio: profiles.bio,
          avatarUrl: profiles.avatarUrl,
          memberSince: users.createdAt,
          followerCount: sql<number>`(select count(*) from user_follows f
            where f.following_id = ${profiles.userId})`.mapWith(Number),
          followingCount: sql<number>`(select count(*) from user_follows f
            where f.follower_id = ${profiles.userId})`.mapWith(Number),
          isFollowing: sql<boolean>`exists (select 1 from user_follows f
            where f.follower_id = ${viewerId} and f.following_id = ${profiles.userId})`,
          isArtist: sql<boolean>`exists (select 1 from user_roles r
            where r.user_id = ${profiles.userId} and r.role = 'artist')`,
          songCount: sql<number>`(select count(*) from songs s
            where s.artist_id = ${profiles.userId})`.mapWith(Number),
          totalPlays: sql<number>`(select coalesce(sum(s.play_count), 0) from songs s
            where s.artist_id = ${profiles.userId})`.mapWith(Number),
        })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row ?? null;
    },

    /** A new account's profile; inside `tx`, the sign-up's transaction. */
    async create(userId: string, displayName: string, tx: Db): Promise<void> {
      await tx.insert(profiles).values({ userId, displayName });
    },

    async exists(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(profiles.userId, userId))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Sets the given columns of the caller's profile (a row is made if the account somehow
     * has none).
     */
    async update(
      userId: string,
      change: { displayName?: string | null; bio?: string | null },
    ): Promise<void> {
      if (Object.keys(change).length === 0) return;
      await db
        .insert(profiles)
        .values({ userId, ...change })
        .onConflictDoUpdate({ target: profiles.userId, set: change });
    },

    /**
     * Points the profile at a new avatar and answers the URL it pointed at before (its file is
     * deleted once this has committed). The row is locked first, so two uploads at once each
     * answer what the other replaced, and no file is left behind unnamed.
     */
    async replaceAvatar(userId: string, avatarUrl: string): Promise<{ previous: string | null }> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ avatarUrl: profiles.avatarUrl })
          .from(profiles)
          .where(eq(profiles.userId, userId))
          .for('update');
        await tx
          .insert(profiles)
          .values({ userId, avatarUrl })
          .onConflictDoUpdate({ target: profiles.userId, set: { avatarUrl } });
        return { previous: before?.avatarUrl ?? null };
      });
    },

    /**
     * The ids of the songs `artistId` uploaded, newest first (songs_artist_created_idx), a
     * page after `after`; one more than `limit` tells the caller another page exists.
     */
    async songIds(
      artistId: string,
      limit: number,
      after: Position | null,
    ): Promise<Array<{ id: string; position: Position }>> {
      const rows = await db
        .select({ id: songs.id, micros: positionOf(songs.createdAt) })
        .from(songs)
        .where(
          and(
            eq(songs.artistId, artistId),
            after ? afterPosition(songs.createdAt, songs.id, after) : undefined,
          ),
        )
        .orderBy(desc(songs.createdAt), desc(songs.id))
        .limit(limit + 1);
      return rows.map((r) => ({ id: r.id, position: { micros: r.micros, id: r.id } }));
    },
  };
}
