import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRowsNamed } from '../../db/sql-results.ts';

export type ArtistDaysRepository = ReturnType<typeof createArtistDaysRepository>;

export type ArtistDay = { date: string; streams: number; uniqueListeners: number };

/*
 * The plays of one artist's items — their songs and the episodes of their shows — from
 * `lo` (inclusive) to `hi` (exclusive), by stream_analytics' per-item (item, played_at)
 * indexes, so the cost is the artist's plays in the range, never the whole table.
 */
const artistPlays = (
  artistId: string,
  lo: ReturnType<typeof sql>,
  hi: ReturnType<typeof sql>,
) => sql`
  select sa.played_at, sa.user_id, sa.listened_ms
  from songs s join stream_analytics sa on sa.song_id = s.id
  where s.artist_id = ${artistId} and sa.played_at >= ${lo} and sa.played_at < ${hi}
  union all
  select sa.played_at, sa.user_id, sa.listened_ms
  from podcasts p
  join podcast_episodes e on e.podcast_id = p.id
  join stream_analytics sa on sa.podcast_episode_id = e.id
  where p.creator_id = ${artistId} and sa.played_at >= ${lo} and sa.played_at < ${hi}`;

/**
 * An artist's daily streams and unique listeners (the dashboard, spec §3 artist analytics
 * rows). A finished UTC day never gains plays (a play is recorded at the clock's time), so
 * it is counted once into artist_daily_analytics, the first time a read needs it, and read
 * back as one row after that; today is counted live. A stored row written before its day
 * ended (the demo's rollup of today) is recounted. docs/decisions/0016.
 */
export function createArtistDaysRepository(db: Db) {
  return {
    /**
     * Counts the finished days of [first, today) that have no final row yet. Nothing is
     * stored while none of them had a play, so a new artist's dashboard writes nothing (and
     * counts their few plays each time).
     */
    async rollUp(artistId: string, first: string, today: string, now: Date): Promise<void> {
      const utc = (d: ReturnType<typeof sql>) => sql`((${d})::timestamp at time zone 'UTC')`;
      await queryRowsNamed(
        db,
        sql`
        with stale as (
          select d::date as day
          from generate_series(${first}::date, ${today}::date - 1, interval '1 day') d
          left join artist_daily_analytics a
            on a.artist_id = ${artistId} and a.analytics_date = d::date
          where a.artist_id is null or a.updated_at < ${utc(sql`d::date + 1`)}
        ), bounds as (
          select ${utc(sql`min(day)`)} as lo, ${utc(sql`max(day) + 1`)} as hi from stale
        ), plays as (
          ${artistPlays(artistId, sql`(select lo from bounds)`, sql`(select hi from bounds)`)}
        ), counted as (
          select st.day, count(p.user_id) as streams, count(distinct p.user_id) as listeners,
                 coalesce(sum(p.listened_ms), 0) as listened_ms
          from stale st
          left join plays p on (p.played_at at time zone 'UTC')::date = st.day
          group by st.day
        )
        insert into artist_daily_analytics
          (artist_id, analytics_date, total_streams, unique_listeners, listened_ms, updated_at)
        select ${artistId}, day, streams, listeners, listened_ms, ${now.toISOString()}::timestamptz
        from counted
        -- An artist without plays in these days stores nothing: their reads stay reads.
        where exists (select 1 from counted where streams > 0)
        on conflict (artist_id, analytics_date) do update
          set total_streams = excluded.total_streams,
              unique_listeners = excluded.unique_listeners,
              listened_ms = excluded.listened_ms,
              updated_at = excluded.updated_at
        returning 1`,
      );
    },

    /** Every day of [first, today], oldest first: stored rows, and today counted live. */
    async read(artistId: string, first: string, today: string): Promise<ArtistDay[]> {
      const dayStart = sql`(${today}::date::timestamp at time zone 'UTC')`;
      const found = await queryRowsNamed<{ date: string; streams: number; listeners: number }>(
        db,
        sql`
        with live as (
          select count(*)::int as streams, count(distinct user_id)::int as listeners
          from (${artistPlays(artistId, dayStart, sql`${dayStart} + interval '1 day'`)}) p
        )
        select to_char(d.day, 'YYYY-MM-DD') as date,
               case when d.day = ${today}::date then live.streams
                    else coalesce(a.total_streams, 0) end as streams,
               case when d.day = ${today}::date then live.listeners
                    else coalesce(a.unique_listeners, 0) end as listeners
        from (select g::date as day
              from generate_series(${first}::date, ${today}::date, interval '1 day') g) d
        cross join live
        left join artist_daily_analytics a
          on a.artist_id = ${artistId} and a.analytics_date = d.day and d.day < ${today}::date
        order by d.day`,
      );
      return found.map((r) => ({
        date: r.date,
        streams: Number(r.streams),
        uniqueListeners: Number(r.listeners),
      }));
    },
  };
}
