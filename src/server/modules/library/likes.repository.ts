import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { likedSongs } from '../../db/schema/index.ts';
import { isSqlState, queryRows } from '../../db/sql-results.ts';

export type LikesRepository = ReturnType<typeof createLikesRepository>;

/** A foreign-key violation: the song went between the statement's read and its insert. */
const isMissingSong = (error: unknown): boolean => isSqlState(error, '23503');

/** liked_songs rows: one per (user, song), the unique key keeps it so under races. */
export function createLikesRepository(db: Db) {
  return {
    /**
     * Likes the song unless already liked, in one statement. False when the song does not
     * exist (nothing written); liking twice keeps the first row and its time.
     */
    async like(userId: string, songId: string): Promise<boolean> {
      try {
        const [row] = await queryRows<{ found: boolean }>(
          db,
          sql`
          with song as (select id from songs where id = ${songId}),
          added as (
            insert into liked_songs (user_id, song_id)
            select ${userId}, song.id from song
            on conflict (user_id, song_id) do nothing
            returning id
          )
          select exists (select 1 from song) as found`,
        );
        return row?.found === true;
      } catch (error) {
        if (isMissingSong(error)) return false;
        throw error;
      }
    },

    async unlike(userId: string, songId: string): Promise<void> {
      await db
        .delete(likedSongs)
        .where(and(eq(likedSongs.userId, userId), eq(likedSongs.songId, songId)));
    },

    /** Newest like first (liked_songs_user_created_idx); ties by id, so the order is stable. */
    list(userId: string) {
      return db
        .select({ songId: likedSongs.songId, likedAt: likedSongs.createdAt })
        .from(likedSongs)
        .where(eq(likedSongs.userId, userId))
        .orderBy(desc(likedSongs.createdAt), desc(likedSongs.id));
    },

    async songIds(userId: string): Promise<string[]> {
      const rows = await db
        .select({ songId: likedSongs.songId })
        .from(likedSongs)
        .where(eq(likedSongs.userId, userId));
      return rows.map((r) => r.songId);
    },
  };
}
