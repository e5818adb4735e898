import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { episodeProgress, podcastEpisodes } from '../../db/schema/index.ts';

export type EpisodeRow = typeof podcastEpisodes.$inferSelect;
export type NewEpisode = typeof podcastEpisodes.$inferInsert;
export type ProgressRow = typeof episodeProgress.$inferSelect;

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

    async findById(id: string): Promise<EpisodeRow | null> {
      const [row] = await db
        .select()
        .from(podcastEpisodes)
        .where(eq(podcastEpisodes.id, id))
        .limit(1);
      return row ?? null;
    },

    /**
     * Inserts an episode and runs `withRow` (its media job's enqueue) in the same
     * transaction: no episode without its job, no job without its episode.
     */
    async insert(
      episode: NewEpisode,
      withRow: (row: EpisodeRow, tx: Db) => Promise<unknown>,
    ): Promise<EpisodeRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(podcastEpisodes).values(episode).returning();
        if (!row) throw new Error('episode insert returned no row');
        await withRow(row, tx);
        return row;
      });
    },
  };
}
