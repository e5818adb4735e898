import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRowsNamed } from '../../db/sql-results.ts';

export type ArtistAnalyticsRepository = ReturnType<typeof createArtistAnalyticsRepository>;

export type ArtistOverview = {
  songs_count: number;
  episodes_count: number;
  latest_month: { month: string; total_streams: number } | null;
  top_songs: { id: string; title: string; plays: number }[];
  top_episodes: { id: string; title: string; podcast_title: string; plays: number }[];
  new_followers: {
    count: number;
    latest: {
      user_id: string;
      display_name: string | null;
      avatar_url: string | null;
      followed_at: string;
    }[];
  };
};

/**
 * The dashboard's figures other than the daily series, as ONE read-only statement over the
 * catalogue, listening, social and money tables (docs/decisions/0024: reads are free). Each
 * part is an index range of the artist's own rows: songs by songs_artist_play_count_idx,
 * shows by podcasts_creator_created_idx, follows by user_follows_following_idx, months by
 * artist_revenue_artist_month_key; an episode's plays are its kept total plus today's, from
 * stream_analytics_episode_played_idx. Named statements: planning was a third of the cost.
 */
export function createArtistAnalyticsRepository(db: Db) {
  return {
    /**
     * Adds each of the artist's episodes' plays from its `counted_until` to `until` (today's
     * UTC midnight) into episode_play_totals, once a day per episode. Two reads at once add
     * once: the second's upsert finds counted_until already at `until` and changes nothing.
     */
    async countEpisodePlays(artistId: string, until: Date): Promise<void> {
      const at = until.toISOString();
      await queryRowsNamed(
        db,
        sql`
        with stale as (
          select e.id, coalesce(pt.counted_until, '-infinity') as since
          from podcasts p
          join podcast_episodes e on e.podcast_id = p.id
          left join episode_play_totals pt on pt.episode_id = e.id
          where p.creator_id = ${artistId}
            and (pt.episode_id is null or pt.counted_until < ${at}::timestamptz)
        )
        insert into episode_play_totals (episode_id, plays, counted_until)
        select s.id,
               (select count(*) from stream_analytics sa
                where sa.podcast_episode_id = s.id
                  and sa.played_at >= s.since and sa.played_at < ${at}::timestamptz),
               ${at}::timestamptz
        from stale s
        on conflict (episode_id) do update
          set plays = episode_play_totals.plays + excluded.plays,
              counted_until = excluded.counted_until
          where episode_play_totals.counted_until < excluded.counted_until
        returning 1`,
      );
    },

    async overview(
      artistId: string,
      options: { followersSince: Date; top: number; followersShown: number },
    ): Promise<ArtistOverview> {
      const top = sql.raw(String(Math.max(1, Math.trunc(options.top))));
      const shown = sql.raw(String(Math.max(1, Math.trunc(options.followersShown))));
      const since = options.followersSince.toISOString();
      const [row] = await queryRowsNamed<{ overview: ArtistOverview | string }>(
        db,
        sql`
        select json_build_object(
          'songs_count', (select count(*) from songs where artist_id = ${artistId}),
          'episodes_count', (
            select count(*) from podcasts p join podcast_episodes e on e.podcast_id = p.id
            where p.creator_id = ${artistId}),
          'latest_month', (
            select json_build_object('month', r.month, 'total_streams', r.total_streams)
            from artist_revenue r where r.artist_id = ${artistId}
            order by r.month desc limit 1),
          'top_songs', coalesce((
            select json_agg(json_build_object('id', t.id, 'title', t.title, 'plays', t.play_count)
              order by t.play_count desc, t.title, t.id)
            from (
              select s.id, s.title, s.play_count from songs s where s.artist_id = ${artistId}
              order by s.play_count desc, s.title, s.id
              limit ${top}) t), '[]'::json),
          'top_episodes', coalesce((
            select json_agg(json_build_object('id', t.id, 'title', t.title,
                'podcast_title', t.podcast_title, 'plays', t.plays)
              order by t.plays desc, t.title, t.id)
            from (
              -- Finished days from episode_play_totals, today's plays live.
              select e.id, e.title, p.title as podcast_title,
                     coalesce(pt.plays, 0) + (
                       select count(*) from stream_analytics sa
                       where sa.podcast_episode_id = e.id
                         and sa.played_at >= coalesce(pt.counted_until, '-infinity')) as plays
              from podcasts p
              join podcast_episodes e on e.podcast_id = p.id
              left join episode_play_totals pt on pt.episode_id = e.id
              where p.creator_id = ${artistId}
              order by plays desc, e.title, e.id
              limit ${top}) t), '[]'::json),
          'new_followers', json_build_object(
            'count', (
              select count(*) from user_follows f
              where f.following_id = ${artistId} and f.created_at >= ${since}::timestamptz),
            'latest', coalesce((
              select json_agg(json_build_object('user_id', t.follower_id,
                  'display_name', t.display_name, 'avatar_url', t.avatar_url,
                  'followed_at', t.created_at)
                order by t.created_at desc, t.follower_id)
              from (
                select f.follower_id, f.created_at, pr.display_name, pr.avatar_url
                from user_follows f
                left join profiles pr on pr.user_id = f.follower_id
                where f.following_id = ${artistId} and f.created_at >= ${since}::timestamptz
                order by f.created_at desc, f.follower_id
                limit ${shown}) t), '[]'::json))
        ) as overview`,
      );
      const overview = row!.overview;
      return typeof overview === 'string' ? (JSON.parse(overview) as ArtistOverview) : overview;
    },
  };
}
