import { inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  ads,
  likedSongs,
  notifications,
  playlists,
  playlistTracks,
  podcastEpisodes,
  podcasts,
  songs,
  streamAnalytics,
  userFollows,
  users,
} from '../db/schema/index.ts';
import { queryRows } from '../db/sql-results.ts';

export type DemoRepository = ReturnType<typeof createDemoRepository>;

/** Rows of the demo catalogue; ids are chosen by the caller so rows can refer to each other. */
export type DemoContent = {
  songs: (typeof songs.$inferInsert)[];
  podcasts: (typeof podcasts.$inferInsert)[];
  episodes: (typeof podcastEpisodes.$inferInsert)[];
  follows: (typeof userFollows.$inferInsert)[];
  likes: (typeof likedSongs.$inferInsert)[];
  playlists: (typeof playlists.$inferInsert)[];
  playlistTracks: (typeof playlistTracks.$inferInsert)[];
  streams: (typeof streamAnalytics.$inferInsert)[];
  notifications: (typeof notifications.$inferInsert)[];
  ads: (typeof ads.$inferInsert)[];
};

export function createDemoRepository(db: Db) {
  return {
    /**
     * Demo content goes only into a database nobody has used yet: `empty` (no account),
     * `partial` (demo accounts, perhaps the ADMIN_EMAIL one, and no catalogue: an earlier
     * seed stopped half way, so it may resume) or `used`.
     */
    async seedState(
      demoEmails: readonly string[],
      adminEmail?: string,
    ): Promise<'empty' | 'partial' | 'used'> {
      const own = adminEmail ? [...demoEmails, adminEmail] : [...demoEmails];
      const [accounts] = await db
        .select({
          all: sql<number>`count(*)::int`,
          demo: sql<number>`(count(*) filter (where ${inArray(users.email, [...demoEmails])}))::int`,
          others: sql<number>`(count(*) filter (where ${notInArray(users.email, own)}))::int`,
        })
        .from(users);
      if (!accounts?.all) return 'empty';
      // An admin account alone is someone's database (ADMIN_EMAIL on an existing account).
      if (accounts.others > 0 || accounts.demo === 0) return 'used';
      const [catalogue] = await db
        .select({
          rows: sql<number>`((select count(*) from ${songs}) + (select count(*) from ${podcasts}))::int`,
        })
        .from(sql`(select 1) as one`);
      return catalogue?.rows ? 'used' : 'partial';
    },

    /**
     * Everything but the accounts, in one transaction: all of it or none. `withSongs` and
     * `withEpisodes` add to it once those rows are in (their media jobs, which then commit
     * with them).
     */
    async insertContent(
      c: DemoContent,
      withSongs?: (songIds: string[], tx: Db) => Promise<unknown>,
      withEpisodes?: (episodeIds: string[], tx: Db) => Promise<unknown>,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        if (c.songs.length) {
          const ids = await tx.insert(songs).values(c.songs).returning({ id: songs.id });
          await withSongs?.(
            ids.map((r) => r.id),
            tx,
          );
        }
        if (c.podcasts.length) await tx.insert(podcasts).values(c.podcasts);
        if (c.episodes.length) {
          const ids = await tx
            .insert(podcastEpisodes)
            .values(c.episodes)
            .returning({ id: podcastEpisodes.id });
          await withEpisodes?.(
            ids.map((r) => r.id),
            tx,
          );
        }
        if (c.follows.length) await tx.insert(userFollows).values(c.follows);
        if (c.likes.length) await tx.insert(likedSongs).values(c.likes);
        if (c.playlists.length) await tx.insert(playlists).values(c.playlists);
        if (c.playlistTracks.length) await tx.insert(playlistTracks).values(c.playlistTracks);
        if (c.streams.length) await tx.insert(streamAnalytics).values(c.streams);
        if (c.notifications.length) await tx.insert(notifications).values(c.notifications);
        if (c.ads.length) await tx.insert(ads).values(c.ads);
        // The dashboard rollup, derived from the plays just written (UTC days).
        await tx.execute(sql`
          insert into artist_daily_analytics (artist_id, analytics_date, total_streams, unique_listeners, listened_ms)
          select coalesce(s.artist_id, p.creator_id), (sa.played_at at time zone 'UTC')::date,
                 count(*), count(distinct sa.user_id), sum(sa.listened_ms)
          from stream_analytics sa
          left join songs s on s.id = sa.song_id
          left join podcast_episodes e on e.id = sa.podcast_episode_id
          left join podcasts p on p.id = e.podcast_id
          where coalesce(s.artist_id, p.creator_id) is not null
          group by 1, 2
          on conflict (artist_id, analytics_date) do update
            set total_streams = excluded.total_streams,
                unique_listeners = excluded.unique_listeners,
                listened_ms = excluded.listened_ms,
                updated_at = now()`);
      });
    },

    /** Row counts of the demo tables, for the start-up log and tests. */
    async counts(): Promise<Record<string, number>> {
      const [counts] = await queryRows<Record<string, number>>(
        db,
        sql`
        select (select count(*) from users)::int as users,
               (select count(*) from songs)::int as songs,
               (select count(*) from podcasts)::int as podcasts,
               (select count(*) from podcast_episodes)::int as episodes,
               (select count(*) from user_follows)::int as follows,
               (select count(*) from liked_songs)::int as likes,
               (select count(*) from playlists)::int as playlists,
               (select count(*) from playlist_tracks)::int as playlist_tracks,
               (select count(*) from stream_analytics)::int as streams,
               (select count(*) from notifications)::int as notifications,
               (select count(*) from ads where active)::int as active_ads,
               (select count(*) from artist_daily_analytics)::int as artist_days`,
      );
      return counts!;
    },
  };
}
