import { and, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { streamAnalytics } from '../../db/schema/index.ts';
import { queryRows } from '../../db/sql-results.ts';

export type PlaysRepository = ReturnType<typeof createPlaysRepository>;

const timeOf = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** stream_analytics rows: a play started, its progress, a user's latest plays. */
export function createPlaysRepository(db: Db) {
  return {
    /**
     * The song's play_count + 1 and the play's row in ONE statement (so one transaction):
     * both or neither. Null when the song does not exist (nothing written).
     */
    async start(
      userId: string,
      songId: string,
      playedAt: Date,
    ): Promise<{ id: string; playedAt: Date } | null> {
      const [row] = await queryRows<{ id: string; played_at: Date | string }>(
        db,
        sql`
        with song as (
          update songs set play_count = play_count + 1 where id = ${songId} returning id
        )
        insert into stream_analytics (user_id, song_id, played_at)
        select ${userId}, song.id, ${playedAt.toISOString()}::timestamptz from song
        returning id, played_at`,
      );
      return row ? { id: row.id, playedAt: timeOf(row.played_at) } : null;
    },

    /** An episode's play row; null when the episode does not exist (nothing written). */
    async startEpisode(
      userId: string,
      episodeId: string,
      playedAt: Date,
    ): Promise<{ id: string; playedAt: Date } | null> {
      const [row] = await queryRows<{ id: string; played_at: Date | string }>(
        db,
        sql`
        insert into stream_analytics (user_id, podcast_episode_id, played_at)
        select ${userId}, e.id, ${playedAt.toISOString()}::timestamptz
        from podcast_episodes e where e.id = ${episodeId}
        returning id, played_at`,
      );
      return row ? { id: row.id, playedAt: timeOf(row.played_at) } : null;
    },

    /**
     * Raises the caller's play to max(kept, reported), clamped to the item's duration, and
     * marks it completed at ≥ `completedPercent` % (never unmarked). The row is locked while
     * it is read, so concurrent reports cannot lower it. Null when the play is not the
     * caller's or does not exist (nothing changed). An item of unknown length is not clamped
     * and never completes.
     */
    async progress(
      userId: string,
      playId: string,
      listenedMs: number,
      completedPercent: number,
    ): Promise<{ id: string; listenedMs: number; completed: boolean } | null> {
      const [row] = await queryRows<{ id: string; listened_ms: number; completed: boolean }>(
        db,
        sql`
        with play as (
          select a.id, a.listened_ms, a.completed,
            coalesce(s.duration_ms, e.duration_ms) as duration_ms
          from stream_analytics a
          left join songs s on s.id = a.song_id
          left join podcast_episodes e on e.id = a.podcast_episode_id
          where a.id = ${playId} and a.user_id = ${userId}
          for update of a
        ), heard as (
          select id, completed, duration_ms,
            greatest(listened_ms, least(${listenedMs}::int, coalesce(duration_ms, ${listenedMs}::int))) as ms
          from play
        )
        update stream_analytics a
        set listened_ms = heard.ms,
          completed = heard.completed or (
            coalesce(heard.duration_ms, 0) > 0
            and heard.ms::bigint * 100 >= heard.duration_ms::bigint * ${completedPercent}::int)
        from heard
        where a.id = heard.id
        returning a.id, a.listened_ms, a.completed`,
      );
      return row
        ? { id: row.id, listenedMs: Number(row.listened_ms), completed: row.completed }
        : null;
    },

    /** The user's latest plays of songs and episodes, newest first (stream_analytics_user_played_idx). */
    recentPlays(userId: string, limit: number) {
      return db
        .select({
          id: streamAnalytics.id,
          songId: streamAnalytics.songId,
          episodeId: streamAnalytics.podcastEpisodeId,
          playedAt: streamAnalytics.playedAt,
        })
        .from(streamAnalytics)
        .where(
          and(
            eq(streamAnalytics.userId, userId),
            or(isNotNull(streamAnalytics.songId), isNotNull(streamAnalytics.podcastEpisodeId)),
          ),
        )
        .orderBy(desc(streamAnalytics.playedAt), desc(streamAnalytics.id))
        .limit(limit);
    },
  };
}
