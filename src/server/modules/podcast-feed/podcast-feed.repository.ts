import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  podcastEpisodeRenditions,
  podcastEpisodes,
  podcasts,
  profiles,
} from '../../db/schema/index.ts';
import { queryRows } from '../../db/sql-results.ts';

export type PodcastFeedRepository = ReturnType<typeof createPodcastFeedRepository>;

export type FeedShowRow = Awaited<ReturnType<PodcastFeedRepository['show']>>;
export type FeedEpisodeRow = Awaited<ReturnType<PodcastFeedRepository['episodes']>>[number];

/**
 * What the feed reads of the podcasts module's tables (podcasts, podcast_episodes, the
 * creator's profile, the episodes' AAC renditions). It writes its own table, the day's record of who downloaded an
 * episode, and with it the episode's download count (a shared write, docs/decisions/0024).
 */
export function createPodcastFeedRepository(db: Db) {
  // The one rendition podcast apps all take (feed-audio.ts); at most one per episode.
  const aacRendition = and(
    eq(podcastEpisodeRenditions.episodeId, podcastEpisodes.id),
    eq(podcastEpisodeRenditions.format, 'aac-128'),
  );
  return {
    async show(podcastId: string) {
      const [row] = await db
        .select({
          id: podcasts.id,
          title: podcasts.title,
          description: podcasts.description,
          coverArtUrl: podcasts.coverArtUrl,
          language: podcasts.language,
          category: podcasts.category,
          explicit: podcasts.explicit,
          feedGuid: podcasts.feedGuid,
          ownerEmail: podcasts.ownerEmail,
          createdAt: podcasts.createdAt,
          updatedAt: podcasts.updatedAt,
          creatorName: profiles.displayName,
        })
        .from(podcasts)
        .leftJoin(profiles, eq(profiles.userId, podcasts.creatorId))
        .where(eq(podcasts.id, podcastId));
      return row ?? null;
    },

    /**
     * Episodes whose audio is a file of ours, newest published first (ties by id: stable),
     * each with its AAC rendition if made (the enclosure podcast apps take).
     */
    episodes(podcastId: string) {
      return db
        .select({
          id: podcastEpisodes.id,
          title: podcastEpisodes.title,
          description: podcastEpisodes.description,
          audioKey: podcastEpisodes.audioKey,
          audioBytes: podcastEpisodes.audioBytes,
          audioMime: podcastEpisodes.audioMime,
          durationMs: podcastEpisodes.durationMs,
          episodeNumber: podcastEpisodes.episodeNumber,
          publishedAt: podcastEpisodes.publishedAt,
          aacKey: podcastEpisodeRenditions.fileKey,
          aacBytes: podcastEpisodeRenditions.bytes,
        })
        .from(podcastEpisodes)
        .leftJoin(podcastEpisodeRenditions, aacRendition)
        .where(and(eq(podcastEpisodes.podcastId, podcastId), isNotNull(podcastEpisodes.audioKey)))
        .orderBy(desc(podcastEpisodes.publishedAt), desc(podcastEpisodes.id));
    },

    async episodeAudio(episodeId: string) {
      const [row] = await db
        .select({
          audioUrl: podcastEpisodes.audioUrl,
          audioKey: podcastEpisodes.audioKey,
          audioMime: podcastEpisodes.audioMime,
          audioBytes: podcastEpisodes.audioBytes,
          aacKey: podcastEpisodeRenditions.fileKey,
          aacBytes: podcastEpisodeRenditions.bytes,
        })
        .from(podcastEpisodes)
        .leftJoin(podcastEpisodeRenditions, aacRendition)
        .where(eq(podcastEpisodes.id, episodeId));
      return row ?? null;
    },

    /**
     * Counts a download of the episode unless `listener` already downloaded it on `day` (a
     * UTC date, YYYY-MM-DD); records older than the day before are dropped on the way. One
     * statement: two listeners' first downloads at once both count, one listener's twice
     * at once counts once (the primary key decides).
     */
    async countDownload(episodeId: string, listener: string, day: string): Promise<boolean> {
      const [row] = await queryRows<{ counted: boolean }>(
        db,
        sql`
        with fresh as (
          insert into podcast_episode_downloads (episode_id, listener, day)
          values (${episodeId}, ${listener}, ${day}::date)
          on conflict do nothing
          returning episode_id
        ), counted as (
          update podcast_episodes set download_count = download_count + 1
          where id in (select episode_id from fresh)
          returning 1
        ), forgotten as (
          delete from podcast_episode_downloads where day < ${day}::date - 1
        )
        select exists (select 1 from counted) as counted`,
      );
      return row?.counted === true;
    },
  };
}
