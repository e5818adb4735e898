import { sql } from 'drizzle-orm';
import type { UserStats } from '../../../contracts/listening.contract.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/sql-results.ts';

export type StatsRepository = ReturnType<typeof createStatsRepository>;

/**
 * A listener's stats (spec §2 Stats, §3 User stats result) as ONE statement that answers
 * the whole JSON document; nothing is summed in JavaScript (docs/decisions/0016).
 *
 * It reads the listener's running totals (listener_totals, _artists, _genres, _songs, kept
 * by triggers on stream_analytics in the statement of every play and report, ADR 0016), so
 * its cost does not grow with the listener's history: one row for the totals, and each top
 * list is the first rows of an index range in the stats' order. Top songs and genres are
 * ordered on a figure first and a name second, so the range is read with its ties and names
 * are joined for those rows only. The activity window reads only its seven days from
 * stream_analytics_user_played_idx. Ties are broken by name (or title) and id so that an
 * answer is deterministic. Hours are rounded to two decimals, the completion rate to one;
 * both 0 without plays.
 */
export function createStatsRepository(db: Db) {
  return {
    async of(
      userId: string,
      options: { today: string; days: number; top: number },
    ): Promise<UserStats> {
      const top = sql.raw(String(Math.max(1, Math.trunc(options.top))));
      const back = sql.raw(String(Math.max(0, Math.trunc(options.days) - 1)));
      const [row] = await queryRows<{ stats: UserStats | string }>(
        db,
        sql`
        with totals as (
          select streams, completed, listened_ms from listener_totals where user_id = ${userId}
        ), window_days as (
          select (${options.today}::date - ${back}) as first_day, ${options.today}::date as last_day
        )
        select json_build_object(
          'totalStreams', coalesce((select streams from totals), 0),
          'completedStreams', coalesce((select completed from totals), 0),
          'totalHours', coalesce((select round(listened_ms / 3600000.0, 2) from totals), 0),
          'completionRate',
            coalesce((select round(100.0 * completed / nullif(streams, 0), 1) from totals), 0),
          'topArtists', coalesce((
            select json_agg(json_build_object('name', t.name, 'streams', t.streams,
                'hours', round(t.listened_ms / 3600000.0, 2))
              order by t.streams desc, t.listened_ms desc, t.name)
            from (
              select a.name, a.streams, a.listened_ms from listener_artists a
              where a.user_id = ${userId}
              order by a.streams desc, a.listened_ms desc, a.name
              limit ${top}) t), '[]'::json),
          'topGenres', coalesce((
            select json_agg(json_build_object('genre', t.genre, 'count', t.count)
              order by t.count desc, t.genre)
            from (
              -- 'Hip Hop' and 'hip hop' are one genre (as genre filters treat them), shown
              -- as the spelling of its most played song.
              select spelling.genre, g.count
              from (
                select g.genre as key, g.count from listener_genres g
                where g.user_id = ${userId}
                order by g.count desc
                fetch first ${top} rows with ties) g
              cross join lateral (
                select btrim(ls.genre) as genre from listener_songs ls
                where ls.user_id = ${userId} and lower(btrim(ls.genre)) = g.key
                order by ls.plays desc, ls.genre
                limit 1) spelling
              order by g.count desc, spelling.genre
              limit ${top}) t), '[]'::json),
          'topSongs', coalesce((
            select json_agg(json_build_object('title', t.title, 'plays', t.plays)
              order by t.plays desc, t.title, t.id)
            from (
              select s.id, s.title, p.plays
              from (
                select ls.song_id, ls.plays from listener_songs ls
                where ls.user_id = ${userId}
                order by ls.plays desc
                fetch first ${top} rows with ties) p
              join songs s on s.id = p.song_id
              order by p.plays desc, s.title, s.id
              limit ${top}) t), '[]'::json),
          'activityData', (
            select json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'),
                'streams', coalesce(c.streams, 0)) order by d.day)
            from window_days w
            cross join generate_series(w.first_day, w.last_day, interval '1 day') d(day)
            left join (
              -- Days are UTC days, whatever the session's time zone.
              select (a.played_at at time zone 'UTC')::date as day, count(*) as streams
              from stream_analytics a, window_days w
              where a.user_id = ${userId}
                and a.played_at >= w.first_day::timestamp at time zone 'UTC'
                and a.played_at < (w.last_day + 1)::timestamp at time zone 'UTC'
              group by 1) c on c.day = d.day::date)
        ) as stats`,
      );
      const stats = row!.stats;
      return typeof stats === 'string' ? (JSON.parse(stats) as UserStats) : stats;
    },
  };
}
