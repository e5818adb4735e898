import { and, desc, eq, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { streamAnalytics } from '../../db/schema/index.ts';
import { isSqlState, queryRows } from '../../db/sql-results.ts';

export type PlaysRepository = ReturnType<typeof createPlaysRepository>;

/**
 * A listening write commits without waiting for its WAL flush (docs/decisions/0030): a
 * crash of the database server itself may lose the last fraction of a second of plays, never
 * part of one; everything else the app writes keeps synchronous commits. A FROM item of
 * every listening write, so it takes effect in that statement's own transaction.
 */
const ASYNC_COMMIT = sql.raw(
  `(select set_config('synchronous_commit', 'off', true)) as durability`,
);

/** The advisory lock key that serialises folds across processes ('canto:play-count-fold'). */
const FOLD_LOCK = 0x63616e746f01;

const timeOf = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/**
 * 1 when `userId` had no play of artist `d.artist_id` (songs or episodes) on the day from
 * `dayStart`, else 0: what a play recorded afterwards adds to a final day's unique listeners.
 */
const newListenerOfDay = (userId: string, dayStart: SQL) => sql`case when exists (
  select 1 from stream_analytics sa join songs s on s.id = sa.song_id
  where sa.user_id = ${userId} and s.artist_id = d.artist_id
    and sa.played_at >= ${dayStart} and sa.played_at < ${dayStart} + interval '1 day'
  union all
  select 1 from stream_analytics sa
  join podcast_episodes e on e.id = sa.podcast_episode_id
  join podcasts pc on pc.id = e.podcast_id
  where sa.user_id = ${userId} and pc.creator_id = d.artist_id
    and sa.played_at >= ${dayStart} and sa.played_at < ${dayStart} + interval '1 day'
) then 0 else 1 end`;

/** A play after a progress report: its heard total before and after, and its song's length. */
export type PlayProgressRow = {
  id: string;
  listenedMs: number;
  completed: boolean;
  /** The total kept before this report (the row was locked while read). */
  previousMs: number;
  /** Null for a podcast episode's play. */
  songId: string | null;
  durationMs: number | null;
  playedAt: Date;
};

/** A finished play recorded afterwards (a scrobble), heard for the song's whole length. */
export type RecordedPlay = { id: string; songId: string; playedAt: Date; listenedMs: number };

type RecordedJson = { id: string; song_id: string; played_at: string; listened_ms: number };

/** stream_analytics rows: a play started, its progress, a user's latest plays. */
export function createPlaysRepository(db: Db) {
  return {
    /**
     * The play's row and its song's entry in play_count_deltas in ONE statement (both or
     * neither); songs itself is not touched (the fold adds the entry to play_count later).
     * Null when the song does not exist: the foreign key refuses the row, nothing is written.
     */
    async start(
      userId: string,
      songId: string,
      playedAt: Date,
    ): Promise<{ id: string; playedAt: Date } | null> {
      try {
        const [row] = await queryRows<{ id: string; played_at: Date | string }>(
          db,
          sql`
          with play as (
            insert into stream_analytics (user_id, song_id, played_at)
            values (${userId}, ${songId}, ${playedAt.toISOString()}::timestamptz)
            returning id, song_id, played_at
          ), counted as (
            insert into play_count_deltas (song_id) select song_id from play
          )
          select id, played_at from play, ${ASYNC_COMMIT}`,
        );
        return row ? { id: row.id, playedAt: timeOf(row.played_at) } : null;
      } catch (error) {
        if (isSqlState(error, '23503')) return null;
        throw error;
      }
    },

    /**
     * A play heard offline, under the id the device gave it: written once, with its heard time
     * (clamped to the item's length, completed at ≥ `completedPercent` %), its song's entry in
     * play_count_deltas and, when it lands in an artist's day the dashboard already took as
     * final, that day's counts, in ONE statement; the same id again writes nothing. Answers
     * whether this call wrote it and whether the id is the caller's play of this item (false:
     * another user's or another item's); null when the song or episode does not exist.
     */
    async recordOffline(
      userId: string,
      playId: string,
      item: { songId: string } | { episodeId: string },
      playedAt: Date,
      listenedMs: number,
      completedPercent: number,
    ): Promise<{ recorded: boolean; same: boolean } | null> {
      const songId = 'songId' in item ? item.songId : null;
      const episodeId = 'episodeId' in item ? item.episodeId : null;
      const dayStart = sql`((d.day)::timestamp at time zone 'UTC')`;
      try {
        const [row] = await queryRows<{ recorded: number; same: number }>(
          db,
          sql`
          with item as (
            select duration_ms from songs where id = ${songId}::uuid
            union all
            select duration_ms from podcast_episodes where id = ${episodeId}::uuid
          ), heard as (
            select (select duration_ms from item limit 1) as duration_ms,
              least(${listenedMs}::int,
                coalesce((select duration_ms from item limit 1), ${listenedMs}::int)) as ms
          ), play as (
            insert into stream_analytics
              (id, user_id, song_id, podcast_episode_id, played_at, listened_ms, completed)
            select ${playId}, ${userId}, ${songId}::uuid, ${episodeId}::uuid,
              ${playedAt.toISOString()}::timestamptz, h.ms,
              coalesce(h.duration_ms, 0) > 0
                and h.ms::bigint * 100 >= h.duration_ms::bigint * ${completedPercent}::int
            from heard h
            on conflict (id) do nothing
            returning id, song_id, podcast_episode_id, played_at, listened_ms
          ), counted as (
            insert into play_count_deltas (song_id) select song_id from play where song_id is not null
          ), days as (
            select coalesce(s.artist_id, pc.creator_id) as artist_id,
              (p.played_at at time zone 'UTC')::date as day, p.listened_ms as ms
            from play p
            left join songs s on s.id = p.song_id
            left join podcast_episodes e on e.id = p.podcast_episode_id
            left join podcasts pc on pc.id = e.podcast_id
            where coalesce(s.artist_id, pc.creator_id) is not null
          ), final_days as (
            -- A day the dashboard already took as final gets the play added, as a scrobble does.
            update artist_daily_analytics a
            set total_streams = a.total_streams + 1,
              listened_ms = a.listened_ms + d.ms,
              unique_listeners = a.unique_listeners + ${newListenerOfDay(userId, dayStart)}
            from days d
            where a.artist_id = d.artist_id and a.analytics_date = d.day
              and a.updated_at >= ${dayStart} + interval '1 day'
            returning 1
          ), existing as (
            select 1 from stream_analytics
            where id = ${playId} and user_id = ${userId}
              and song_id is not distinct from ${songId}::uuid
              and podcast_episode_id is not distinct from ${episodeId}::uuid
          )
          select (select count(*) from play)::int as recorded,
            (select count(*) from existing)::int as same,
            (select count(*) from final_days)::int as days
          from ${ASYNC_COMMIT}`,
        );
        if (!row) return null;
        const recorded = Number(row.recorded) > 0;
        if (recorded || Number(row.same) > 0) return { recorded, same: true };
        // Nothing inserted and no such play: the item does not exist, or the id is taken.
        const [again] = await queryRows<{ same: boolean; found: boolean }>(
          db,
          sql`select exists (
              select 1 from stream_analytics
              where id = ${playId} and user_id = ${userId}
                and song_id is not distinct from ${songId}::uuid
                and podcast_episode_id is not distinct from ${episodeId}::uuid) as same,
            exists (select 1 from stream_analytics where id = ${playId}) as found`,
        );
        // The same id sent concurrently: the other request's row committed after this
        // statement's snapshot was taken, so it is looked for again in a fresh one.
        if (again?.same) return { recorded: false, same: true };
        return again?.found ? { recorded: false, same: false } : null;
      } catch (error) {
        if (isSqlState(error, '23503')) return null;
        throw error;
      }
    },

    /**
     * Plays a Subsonic app reports afterwards (scrobbles), each finished and heard for its
     * song's whole duration, starting at its own time; all or nothing in ONE statement. Null
     * when a song does not exist (nothing written). The same (listener, song, start) again is
     * skipped (stream_analytics_scrobble_key), so a phone replaying its offline plays counts
     * each once; answers the new ones. Each new play goes to play_count_deltas like a
     * start, and to the listener totals by the table's triggers; an artist's finished day
     * already counted into artist_daily_analytics gets the play added, since a scrobble may
     * land in a day the dashboard took as final (its unique listeners +1 when this listener
     * had no play of the artist's that day before this statement).
     */
    async scrobble(
      userId: string,
      plays: readonly { songId: string; playedAt: Date }[],
    ): Promise<RecordedPlay[] | null> {
      if (plays.length === 0) return [];
      const ids = `{${plays.map((p) => p.songId).join(',')}}`;
      const times = `{${plays.map((p) => `"${p.playedAt.toISOString()}"`).join(',')}}`;
      const dayStart = sql`((d.day)::timestamp at time zone 'UTC')`;
      try {
        const [row] = await queryRows<{ ok: boolean; recorded: RecordedJson[] | null }>(
          db,
          sql`
          with input as (
            select * from unnest(${ids}::uuid[], ${times}::timestamptz[]) as i(song_id, played_at)
          ), found as (
            select i.song_id, i.played_at, coalesce(s.duration_ms, 0) as duration_ms
            from input i join songs s on s.id = i.song_id
          ), checked as (
            select (select count(*) from found) = (select count(*) from input) as ok
          ), play as (
            insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed, scrobbled)
            select distinct ${userId}::uuid, f.song_id, f.played_at, f.duration_ms, f.duration_ms > 0, true
            from found f where (select ok from checked)
            on conflict (user_id, song_id, played_at) where scrobbled do nothing
            returning id, song_id, played_at, listened_ms
          ), counted as (
            insert into play_count_deltas (song_id) select song_id from play
          ), days as (
            select s.artist_id, (p.played_at at time zone 'UTC')::date as day,
              count(*)::int as streams, sum(p.listened_ms)::bigint as ms
            from play p join songs s on s.id = p.song_id
            where s.artist_id is not null
            group by 1, 2
          ), final_days as (
            update artist_daily_analytics a
            set total_streams = a.total_streams + d.streams,
              listened_ms = a.listened_ms + d.ms,
              unique_listeners = a.unique_listeners + ${newListenerOfDay(userId, dayStart)}
            from days d
            where a.artist_id = d.artist_id and a.analytics_date = d.day
              and a.updated_at >= ${dayStart} + interval '1 day'
            returning 1
          )
          select (select ok from checked) as ok,
            (select json_agg(json_build_object('id', id, 'song_id', song_id,
              'played_at', played_at, 'listened_ms', listened_ms)) from play) as recorded
          from ${ASYNC_COMMIT}`,
        );
        if (!row?.ok) return null;
        return (row.recorded ?? []).map((r) => ({
          id: r.id,
          songId: r.song_id,
          playedAt: timeOf(r.played_at),
          listenedMs: Number(r.listened_ms),
        }));
      } catch (error) {
        if (isSqlState(error, '23503')) return null;
        throw error;
      }
    },

    /**
     * Adds up to `batch` pending plays into songs.play_count and removes them, in one
     * statement; answers how many it took. A taken row is deleted by that statement, so no
     * play is counted twice; folds take an advisory lock first, so concurrent ones (several
     * processes) run one after the other instead of deadlocking on the songs they share. A
     * play of a song deleted since is dropped.
     */
    async foldPlayCounts(batch: number): Promise<number> {
      return db.transaction(async (tx) => {
        // One fold at a time per database: two folds updating overlapping songs could
        // otherwise deadlock on their rows.
        await tx.execute(sql`select pg_advisory_xact_lock(${FOLD_LOCK})`);
        const [row] = await queryRows<{ taken: number }>(
          tx,
          sql`
        with taken as (
          delete from play_count_deltas
          where ctid = any (array(
            select ctid from play_count_deltas limit ${batch} for update skip locked))
          returning song_id
        ), counted as (
          select song_id, count(*) as plays from taken group by song_id
        ), locked as (
          select s.id, c.plays from songs s join counted c on c.song_id = s.id
          order by s.id for no key update of s
        ), folded as (
          update songs set play_count = play_count + locked.plays from locked where songs.id = locked.id returning 1
        )
        select (select count(*) from taken)::int as taken, (select count(*) from folded)::int as songs`,
        );
        return Number(row?.taken ?? 0);
      });
    },

    /**
     * Applies up to `batch` pending listener-total changes (listening_deltas), oldest first,
     * to the listener_* totals and removes them; answers how many it took. The work is the
     * database's `listening_totals_fold` (migration 0025): one fold at a time per database,
     * each change applied by the statement that deletes it.
     */
    async foldListenerTotals(batch: number): Promise<number> {
      const [row] = await queryRows<{ taken: number }>(
        db,
        sql`select listening_totals_fold(${batch}::int) as taken`,
      );
      return Number(row?.taken ?? 0);
    },

    /** The same for one listener's pending changes, all of them (their stats read first). */
    async foldListenerTotalsOf(userId: string): Promise<number> {
      const [row] = await queryRows<{ taken: number }>(
        db,
        sql`select listening_totals_fold(0, ${userId}::uuid) as taken`,
      );
      return Number(row?.taken ?? 0);
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
        from podcast_episodes e, ${ASYNC_COMMIT} where e.id = ${episodeId}
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
    ): Promise<PlayProgressRow | null> {
      const [row] = await queryRows<{
        id: string;
        listened_ms: number;
        completed: boolean;
        previous_ms: number;
        song_id: string | null;
        duration_ms: number | null;
        played_at: Date | string;
      }>(
        db,
        sql`
        with play as (
          select a.id, a.listened_ms, a.completed, a.song_id, a.played_at,
            coalesce(s.duration_ms, e.duration_ms) as duration_ms
          from stream_analytics a
          left join songs s on s.id = a.song_id
          left join podcast_episodes e on e.id = a.podcast_episode_id
          where a.id = ${playId} and a.user_id = ${userId}
          for update of a
        ), heard as (
          select id, completed, duration_ms, song_id, played_at, listened_ms as previous_ms,
            greatest(listened_ms, least(${listenedMs}::int, coalesce(duration_ms, ${listenedMs}::int))) as ms
          from play
        )
        update stream_analytics a
        set listened_ms = heard.ms,
          completed = heard.completed or (
            coalesce(heard.duration_ms, 0) > 0
            and heard.ms::bigint * 100 >= heard.duration_ms::bigint * ${completedPercent}::int)
        from heard, ${ASYNC_COMMIT}
        where a.id = heard.id
        returning a.id, a.listened_ms, a.completed, heard.previous_ms, heard.song_id,
          heard.duration_ms, heard.played_at`,
      );
      return row
        ? {
            id: row.id,
            listenedMs: Number(row.listened_ms),
            completed: row.completed,
            previousMs: Number(row.previous_ms),
            songId: row.song_id,
            durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
            playedAt: timeOf(row.played_at),
          }
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
