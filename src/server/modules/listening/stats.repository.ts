import { sql } from 'drizzle-orm';
import type { UserStats } from '../../../contracts/listening.contract.ts';
import type { Db } from '../../db/client.ts';

export type StatsRepository = ReturnType<typeof createStatsRepository>;

/**
 * A listener's stats (spec §2 Stats, §3 User stats result) as ONE statement that answers
 * the whole JSON document; nothing is summed in JavaScript (product.md §4).
 *
 * The user's plays are first folded per song (`per_song`): an index-only scan of
 * stream_analytics_user_song_idx (user, song, listened_ms, completed), however many other
 * users' rows the table holds, and at most one row per distinct song heard. Totals come
 * from those rows; the top lists join them to songs. The activity window reads only its
 * seven days from stream_analytics_user_played_idx. Ties are broken by name (or title) and
 * id so that an answer is deterministic. Hours are rounded to two decimals, the completion
 * rate to one; both 0 without plays.
 */
export function createStatsRepository(db: Db) {
  return {
    async of(
      userId: string,
      options: { today: string; days: number; top: number },
    ): Promise<UserStats> {
      const top = sql.raw(String(Math.max(1, Math.trunc(options.top))));
      const back = sql.raw(String(Math.max(0, Math.trunc(options.days) - 1)));
      const result = (await db.execute(sql`
        with per_song as materialized (
          select a.song_id, count(*) as plays, coalesce(sum(a.listened_ms), 0) as ms,
            count(*) filter (where a.completed) as done
          from stream_analytics a
          where a.user_id = ${userId}
          group by a.song_id
        ), heard as materialized (
          select s.id, s.title, s.artist, s.genre, p.plays, p.ms
          from per_song p join songs s on s.id = p.song_id
        ), window_days as (
          select (${options.today}::date - ${back}) as first_day, ${options.today}::date as last_day
        )
        select json_build_object(
          'totalStreams', (select coalesce(sum(plays), 0) from per_song),
          'completedStreams', (select coalesce(sum(done), 0) from per_song),
          'totalHours', (select coalesce(round(sum(ms) / 3600000.0, 2), 0) from per_song),
          'completionRate',
            (select coalesce(round(100.0 * sum(done) / nullif(sum(plays), 0), 1), 0) from per_song),
          'topArtists', coalesce((
            select json_agg(json_build_object('name', t.name, 'streams', t.streams, 'hours', t.hours)
              order by t.streams desc, t.ms desc, t.name)
            from (
              select h.artist as name, sum(h.plays) as streams, sum(h.ms) as ms,
                round(sum(h.ms) / 3600000.0, 2) as hours
              from heard h
              where h.artist is not null and btrim(h.artist) <> ''
              group by h.artist
              order by streams desc, ms desc, name
              limit ${top}) t), '[]'::json),
          'topGenres', coalesce((
            select json_agg(json_build_object('genre', t.genre, 'count', t.count)
              order by t.count desc, t.genre)
            from (
              -- 'Hip Hop' and 'hip hop' are one genre (as genre filters treat them), shown
              -- as its most played spelling.
              select (array_agg(btrim(h.genre) order by h.plays desc, h.genre))[1] as genre,
                sum(h.plays) as count
              from heard h
              where h.genre is not null and btrim(h.genre) <> ''
              group by lower(btrim(h.genre))
              order by count desc, genre
              limit ${top}) t), '[]'::json),
          'topSongs', coalesce((
            select json_agg(json_build_object('title', t.title, 'plays', t.plays)
              order by t.plays desc, t.title, t.id)
            from (
              select h.id, h.title, h.plays from heard h
              order by h.plays desc, h.title, h.id
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
        ) as stats`)) as unknown as { rows: Array<{ stats: UserStats | string }> };
      const stats = result.rows[0]!.stats;
      return typeof stats === 'string' ? (JSON.parse(stats) as UserStats) : stats;
    },
  };
}
