import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { podcastEpisodeRenditions, podcastEpisodes } from '../../db/schema/index.ts';
import type { MediaJobPort, MediaOutcome, MediaSource } from '../../media/media-job.ts';

export type EpisodeRenditionRow = typeof podcastEpisodeRenditions.$inferSelect;

export type EpisodeMediaRepository = ReturnType<typeof createEpisodeMediaRepository>;

/**
 * The media pipeline's rows for episodes (docs/decisions/0014, 0018): renditions, loudness,
 * waveform and status, as songs have them. Every write is keyed by episode and format, so a
 * job that runs twice writes the same rows.
 */
export function createEpisodeMediaRepository(db: Db) {
  const repository = {
    async source(episodeId: string): Promise<MediaSource | null> {
      const [row] = await db
        .select({
          id: podcastEpisodes.id,
          fileKey: podcastEpisodes.audioKey,
          durationMs: podcastEpisodes.durationMs,
          waveformKey: podcastEpisodes.waveformKey,
        })
        .from(podcastEpisodes)
        .where(eq(podcastEpisodes.id, episodeId))
        .limit(1);
      return row ?? null;
    },

    /** The renditions of these episodes, each episode's by bitrate ascending. */
    async renditionsOf(episodeIds: string[]): Promise<EpisodeRenditionRow[]> {
      if (episodeIds.length === 0) return [];
      return db
        .select()
        .from(podcastEpisodeRenditions)
        .where(inArray(podcastEpisodeRenditions.episodeId, episodeIds))
        .orderBy(
          asc(podcastEpisodeRenditions.episodeId),
          asc(podcastEpisodeRenditions.bitrateKbps),
        );
    },

    /**
     * Stores a finished job's outcome and marks the episode ready, in one transaction under
     * its row lock. Null when the episode is gone: its files are the caller's to delete.
     * Otherwise the storage keys this replaced (a re-run's are the same keys, so usually none).
     */
    async complete(
      episodeId: string,
      outcome: MediaOutcome,
    ): Promise<{ replaced: string[] } | null> {
      return db.transaction(async (tx) => {
        const [episode] = await tx
          .select({ waveformKey: podcastEpisodes.waveformKey })
          .from(podcastEpisodes)
          .where(eq(podcastEpisodes.id, episodeId))
          .for('update')
          .limit(1);
        if (!episode) return null;
        const before = await tx
          .select({
            format: podcastEpisodeRenditions.format,
            fileKey: podcastEpisodeRenditions.fileKey,
          })
          .from(podcastEpisodeRenditions)
          .where(eq(podcastEpisodeRenditions.episodeId, episodeId));
        const kept = new Set(outcome.renditions.map((r) => r.fileKey));
        const formats = outcome.renditions.map((r) => r.format);
        // Formats no longer made lose their rows; the rest are written over in place.
        await tx
          .delete(podcastEpisodeRenditions)
          .where(
            and(
              eq(podcastEpisodeRenditions.episodeId, episodeId),
              formats.length > 0
                ? sql`${podcastEpisodeRenditions.format} <> all(${sql.param(formats)}::text[])`
                : undefined,
            ),
          );
        for (const r of outcome.renditions) {
          const { format: _format, ...fields } = r;
          await tx
            .insert(podcastEpisodeRenditions)
            .values({ ...r, episodeId })
            .onConflictDoUpdate({
              target: [podcastEpisodeRenditions.episodeId, podcastEpisodeRenditions.format],
              set: fields,
            });
        }
        await tx
          .update(podcastEpisodes)
          .set({
            mediaStatus: 'ready',
            loudnessLufs: outcome.loudness?.integratedLufs ?? null,
            truePeakDbtp: outcome.loudness?.truePeakDbtp ?? null,
            waveformUrl: outcome.waveform.url,
            waveformKey: outcome.waveform.key,
          })
          .where(eq(podcastEpisodes.id, episodeId));
        const replaced = before.map((b) => b.fileKey).filter((k) => !kept.has(k));
        if (episode.waveformKey && episode.waveformKey !== outcome.waveform.key)
          replaced.push(episode.waveformKey);
        return { replaced };
      });
    },

    /** The job is dead: listeners keep the original, the creator sees 'failed'. */
    async markFailed(episodeId: string): Promise<void> {
      await db
        .update(podcastEpisodes)
        .set({ mediaStatus: 'failed' })
        .where(
          and(eq(podcastEpisodes.id, episodeId), eq(podcastEpisodes.mediaStatus, 'processing')),
        );
    },

    /**
     * A failed episode back to 'processing', its new job enqueued by `enqueue` in the same
     * transaction. Null when the episode was not 'failed' (nothing changes then).
     */
    async reprocess(
      episodeId: string,
      enqueue: (tx: Db) => Promise<unknown>,
    ): Promise<typeof podcastEpisodes.$inferSelect | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(podcastEpisodes)
          .set({ mediaStatus: 'processing' })
          .where(and(eq(podcastEpisodes.id, episodeId), eq(podcastEpisodes.mediaStatus, 'failed')))
          .returning();
        if (!row) return null;
        await enqueue(tx);
        return row;
      });
    },
  };
  return repository satisfies MediaJobPort;
}
