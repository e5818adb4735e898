import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isSqlState } from '../../db/sql-results.ts';
import { createMediaRows } from '../../media/media-rows.repository.ts';
import {
  episodeProgress,
  podcastEpisodeRenditions,
  podcastEpisodes,
  podcasts,
} from '../../db/schema/index.ts';

export type EpisodeRow = typeof podcastEpisodes.$inferSelect;
export type NewEpisode = typeof podcastEpisodes.$inferInsert;
export type ProgressRow = typeof episodeProgress.$inferSelect;
export type EpisodeRenditionRow = typeof podcastEpisodeRenditions.$inferSelect;

export type EpisodesRepository = ReturnType<typeof createEpisodesRepository>;

/** Podcast episodes (spec §3 podcast_episodes) and a listener's place in each. */
export function createEpisodesRepository(db: Db) {
  return {
    /**
     * A show's episodes, episode_number descending (spec §7), then newest first, each with
     * `userId`'s progress (null when never started).
     */
    async ofShow(
      podcastId: string,
      userId: string,
    ): Promise<Array<{ episode: EpisodeRow; progress: ProgressRow | null }>> {
      return db
        .select({ episode: podcastEpisodes, progress: episodeProgress })
        .from(podcastEpisodes)
        .leftJoin(
          episodeProgress,
          and(
            eq(episodeProgress.episodeId, podcastEpisodes.id),
            eq(episodeProgress.userId, userId),
          ),
        )
        .where(eq(podcastEpisodes.podcastId, podcastId))
        .orderBy(
          desc(podcastEpisodes.episodeNumber),
          desc(podcastEpisodes.publishedAt),
          desc(podcastEpisodes.id),
        );
    },

    /** Episodes by id (any order), each with its show's title and cover and `userId`'s progress. */
    async byIds(ids: string[], userId: string) {
      if (ids.length === 0) return [];
      return db
        .select({
          episode: podcastEpisodes,
          progress: episodeProgress,
          show: { title: podcasts.title, coverArtUrl: podcasts.coverArtUrl },
        })
        .from(podcastEpisodes)
        .innerJoin(podcasts, eq(podcasts.id, podcastEpisodes.podcastId))
        .leftJoin(
          episodeProgress,
          and(
            eq(episodeProgress.episodeId, podcastEpisodes.id),
            eq(episodeProgress.userId, userId),
          ),
        )
        .where(inArray(podcastEpisodes.id, ids));
    },

    /** The shows' episodes, each show's by episode_number descending, then newest first. */
    async ofShows(podcastIds: string[]): Promise<EpisodeRow[]> {
      if (podcastIds.length === 0) return [];
      return db
        .select()
        .from(podcastEpisodes)
        .where(inArray(podcastEpisodes.podcastId, podcastIds))
        .orderBy(
          podcastEpisodes.podcastId,
          desc(podcastEpisodes.episodeNumber),
          desc(podcastEpisodes.publishedAt),
          desc(podcastEpisodes.id),
        );
    },

    /** The `limit` most recently published episodes of every show. */
    newest(limit: number): Promise<EpisodeRow[]> {
      return db
        .select()
        .from(podcastEpisodes)
        .orderBy(desc(podcastEpisodes.publishedAt), desc(podcastEpisodes.id))
        .limit(limit);
    },

    /**
     * Episodes `userId` has a place in (position past 0), most recently moved first, with
     * that place: what Subsonic apps call bookmarks.
     */
    startedBy(userId: string): Promise<Array<{ episode: EpisodeRow; progress: ProgressRow }>> {
      return db
        .select({ episode: podcastEpisodes, progress: episodeProgress })
        .from(episodeProgress)
        .innerJoin(podcastEpisodes, eq(podcastEpisodes.id, episodeProgress.episodeId))
        .where(and(eq(episodeProgress.userId, userId), gt(episodeProgress.positionMs, 0)))
        .orderBy(desc(episodeProgress.updatedAt), desc(episodeProgress.episodeId));
    },

    /** `userId`'s place in one episode; null when never started (or the episode is gone). */
    async progressOf(userId: string, episodeId: string): Promise<ProgressRow | null> {
      const [row] = await db
        .select()
        .from(episodeProgress)
        .where(and(eq(episodeProgress.userId, userId), eq(episodeProgress.episodeId, episodeId)))
        .limit(1);
      return row ?? null;
    },

    async findById(id: string): Promise<EpisodeRow | null> {
      const [row] = await db
        .select()
        .from(podcastEpisodes)
        .where(eq(podcastEpisodes.id, id))
        .limit(1);
      return row ?? null;
    },

    /**
     * Deletes an episode; its renditions and listeners' progress go with it (ON DELETE
     * CASCADE), plays keep nothing of it (cascade) and ad impressions keep their earnings
     * (SET NULL). Under the row's lock, as the media job stores its outcome: the renditions
     * read here are all there will be (a job finishing later finds no episode and deletes its
     * own files). Null when it is gone; otherwise the row and its renditions' keys, whose
     * files are the caller's to delete once this has committed.
     */
    async delete(id: string): Promise<{ row: EpisodeRow; renditionKeys: string[] } | null> {
      return db.transaction(async (tx) => {
        await tx
          .select({ id: podcastEpisodes.id })
          .from(podcastEpisodes)
          .where(eq(podcastEpisodes.id, id))
          .for('update');
        const renditions = await tx
          .select({ key: podcastEpisodeRenditions.fileKey })
          .from(podcastEpisodeRenditions)
          .where(eq(podcastEpisodeRenditions.episodeId, id));
        const [row] = await tx
          .delete(podcastEpisodes)
          .where(eq(podcastEpisodes.id, id))
          .returning();
        return row ? { row, renditionKeys: renditions.map((r) => r.key) } : null;
      });
    },

    /**
     * Inserts an episode and runs `withRow` (its media job's enqueue) in the same
     * transaction: no episode without its job, no job without its episode. Null when the
     * show is gone by now (deleted while the upload ran: SQLSTATE 23503).
     */
    async insert(
      episode: NewEpisode,
      withRow: (row: EpisodeRow, tx: Db) => Promise<unknown>,
    ): Promise<EpisodeRow | null> {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx.insert(podcastEpisodes).values(episode).returning();
          if (!row) throw new Error('episode insert returned no row');
          await withRow(row, tx);
          return row;
        });
      } catch (error) {
        if (isSqlState(error, '23503')) return null;
        throw error;
      }
    },
  };
}

/** An episode's media rows (docs/decisions/0018): as a song's, in the podcasts tables. */
export const createEpisodeMediaRepository = (db: Db) =>
  createMediaRows(db, {
    table: podcastEpisodes,
    original: podcastEpisodes.audioKey,
    renditions: podcastEpisodeRenditions,
    owner: 'episodeId',
  });
export type EpisodeMediaRepository = ReturnType<typeof createEpisodeMediaRepository>;
