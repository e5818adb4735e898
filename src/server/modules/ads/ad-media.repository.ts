import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adRenditions, ads } from '../../db/schema/index.ts';
import type { MediaJobPort, MediaOutcome, MediaSource } from '../../media/media-job.ts';

/**
 * The media pipeline's rows for ads (docs/decisions/0014, 0023). Unlike a song's or an
 * episode's, an ad's audio can be replaced, so the job's item is one stored audio file (its
 * key, `music/<key>`), not the ad: a job whose file the ad no longer plays finds nothing to
 * do, or has its outputs discarded at the end. Ads keep no waveform (nothing draws one): the
 * job's waveform file is handed back as replaced, so the job deletes it.
 */
export function createAdMediaRepository(db: Db) {
  const byAudio = (audioKey: string) => eq(ads.audioKey, audioKey);

  const repository = {
    async source(audioKey: string): Promise<MediaSource | null> {
      const [row] = await db
        .select({ id: ads.id, durationMs: ads.durationMs, status: ads.mediaStatus })
        .from(ads)
        .where(byAudio(audioKey))
        .limit(1);
      // Gone, replaced, or already processed (a re-run after the worker died before its ack:
      // with no waveform column to recognise its own outputs by, 'ready' says so).
      if (!row || row.status === 'ready') return null;
      return { id: row.id, fileKey: audioKey, durationMs: row.durationMs, waveformKey: null };
    },

    /**
     * Stores a finished job's renditions and loudness and marks the ad ready, under its row
     * lock, if the ad still plays this audio; null otherwise (the job deletes its files).
     */
    async complete(
      audioKey: string,
      outcome: MediaOutcome,
    ): Promise<{ replaced: string[] } | null> {
      return db.transaction(async (tx) => {
        const [ad] = await tx
          .select({ id: ads.id })
          .from(ads)
          .where(byAudio(audioKey))
          .for('update')
          .limit(1);
        if (!ad) return null;
        const before = await tx
          .select({ format: adRenditions.format, fileKey: adRenditions.fileKey })
          .from(adRenditions)
          .where(eq(adRenditions.adId, ad.id));
        const kept = new Set(outcome.renditions.map((r) => r.fileKey));
        const formats = outcome.renditions.map((r) => r.format);
        await tx
          .delete(adRenditions)
          .where(
            and(
              eq(adRenditions.adId, ad.id),
              formats.length > 0
                ? sql`${adRenditions.format} <> all(${sql.param(formats)}::text[])`
                : undefined,
            ),
          );
        for (const r of outcome.renditions) {
          const { format: _format, ...fields } = r;
          await tx
            .insert(adRenditions)
            .values({ ...r, adId: ad.id })
            .onConflictDoUpdate({ target: [adRenditions.adId, adRenditions.format], set: fields });
        }
        await tx
          .update(ads)
          .set({
            mediaStatus: 'ready',
            loudnessLufs: outcome.loudness?.integratedLufs ?? null,
            truePeakDbtp: outcome.loudness?.truePeakDbtp ?? null,
          })
          .where(eq(ads.id, ad.id));
        const replaced = before.map((b) => b.fileKey).filter((k) => !kept.has(k));
        return { replaced: [...replaced, outcome.waveform.key] };
      });
    },

    /** The job is dead: listeners get the original, the admin sees 'failed'. */
    async markFailed(audioKey: string): Promise<void> {
      await db
        .update(ads)
        .set({ mediaStatus: 'failed' })
        .where(and(byAudio(audioKey), eq(ads.mediaStatus, 'processing')));
    },
  };
  return repository satisfies MediaJobPort;
}
