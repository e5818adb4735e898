import { and, desc, eq, inArray, sql } from 'drizzle-orm';
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

    /**
     * Likes every song not yet liked, in one statement, only if all of them exist (false:
     * nothing written). The likes keep the first row and its time, as `like` does.
     */
    async likeMany(userId: string, songIds: readonly string[]): Promise<boolean> {
      if (songIds.length === 0) return true;
      try {
        const [row] = await queryRows<{ ok: boolean }>(
          db,
          sql`
          with wanted as (select distinct id from unnest(${`{${songIds.join(',')}}`}::uuid[]) as w(id)),
          song as (select s.id from songs s join wanted w on w.id = s.id),
          checked as (
            select (select count(*) from song) = (select count(*) from wanted) as ok
          ), added as (
            insert into liked_songs (user_id, song_id)
            select ${userId}, song.id from song where (select ok from checked)
            on conflict (user_id, song_id) do nothing
            returning id
          )
          select (select ok from checked) as ok`,
        );
        return row?.ok === true;
      } catch (error) {
        if (isMissingSong(error)) return false;
        throw error;
      }
    },

    /** Idempotent: removes the user's likes of these songs, whichever exist. */
    async unlikeMany(userId: string, songIds: readonly string[]): Promise<void> {
      if (songIds.length === 0) return;
      await db
        .delete(likedSongs)
        .where(and(eq(likedSongs.userId, userId), inArray(likedSongs.songId, [...songIds])));
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
