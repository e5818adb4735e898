import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { songRenditions, songs } from '../../db/schema/index.ts';
import type { MediaJobPort, MediaOutcome, MediaSource } from '../../media/media-job.ts';

export type RenditionRow = typeof songRenditions.$inferSelect;

/** What the media job needs to know of a song (media/media-job.ts), and its status. */
export type SongMediaSource = MediaSource & { mediaStatus: 'processing' | 'ready' | 'failed' };

export type SongMediaRepository = ReturnType<typeof createSongMediaRepository>;

/**
 * The media pipeline's rows (docs/decisions/0014): a song's renditions, loudness, waveform
 * and status. Every write is keyed by song and format, so a job that runs twice writes the
 * same rows.
 */
export function createSongMediaRepository(db: Db) {
  // Every page of songs (search, home, lists) asks for its renditions: built once, and on a
  // PostgreSQL server parsed and planned once per connection (one text for any number of ids).
  const renditionsOf = db
    .select()
    .from(songRenditions)
    .where(sql`${songRenditions.songId} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(songRenditions.songId), asc(songRenditions.bitrateKbps))
    .prepare('canto_song_renditions');
  const repository = {
    async source(songId: string): Promise<SongMediaSource | null> {
      const [row] = await db
        .select({
          id: songs.id,
          fileKey: songs.fileKey,
          durationMs: songs.durationMs,
          mediaStatus: songs.mediaStatus,
          waveformKey: songs.waveformKey,
        })
        .from(songs)
        .where(eq(songs.id, songId))
        .limit(1);
      return row ?? null;
    },

    /** The renditions of these songs, each song's by bitrate ascending. */
    async renditionsOf(songIds: string[]): Promise<RenditionRow[]> {
      if (songIds.length === 0) return [];
      return renditionsOf.execute({ ids: songIds });
    },

    /**
     * Stores a finished job's outcome and marks the song ready, in one transaction under the
     * song's row lock (a delete waits, or went first). Null when the song is gone: its files
     * are the caller's to delete. Otherwise the storage keys this replaced (a re-run's are
     * the same keys, so usually none).
     */
    async complete(songId: string, outcome: MediaOutcome): Promise<{ replaced: string[] } | null> {
      return db.transaction(async (tx) => {
        const [song] = await tx
          .select({ waveformKey: songs.waveformKey })
          .from(songs)
          .where(eq(songs.id, songId))
          .for('update')
          .limit(1);
        if (!song) return null;
        const before = await tx
          .select({ format: songRenditions.format, fileKey: songRenditions.fileKey })
          .from(songRenditions)
          .where(eq(songRenditions.songId, songId));
        const kept = new Set(outcome.renditions.map((r) => r.fileKey));
        const formats = outcome.renditions.map((r) => r.format);
        // Formats no longer made lose their rows; the rest are written over in place.
        await tx
          .delete(songRenditions)
          .where(
            and(
              eq(songRenditions.songId, songId),
              formats.length > 0
                ? sql`${songRenditions.format} <> all(${sql.param(formats)}::text[])`
                : undefined,
            ),
          );
        for (const r of outcome.renditions) {
          await tx
            .insert(songRenditions)
            .values({ ...r, songId })
            .onConflictDoUpdate({
              target: [songRenditions.songId, songRenditions.format],
              set: {
                codec: r.codec,
                mime: r.mime,
                bitrateKbps: r.bitrateKbps,
                fileUrl: r.fileUrl,
                fileKey: r.fileKey,
                bytes: r.bytes,
                durationMs: r.durationMs,
              },
            });
        }
        await tx
          .update(songs)
          .set({
            mediaStatus: 'ready',
            loudnessLufs: outcome.loudness?.integratedLufs ?? null,
            truePeakDbtp: outcome.loudness?.truePeakDbtp ?? null,
            waveformUrl: outcome.waveform.url,
            waveformKey: outcome.waveform.key,
          })
          .where(eq(songs.id, songId));
        const replaced = before.map((b) => b.fileKey).filter((k) => !kept.has(k));
        if (song.waveformKey && song.waveformKey !== outcome.waveform.key)
          replaced.push(song.waveformKey);
        return { replaced };
      });
    },

    /** The job is dead: the artist sees 'failed' (and may ask again). */
    async markFailed(songId: string): Promise<void> {
      await db
        .update(songs)
        .set({ mediaStatus: 'failed' })
        .where(and(eq(songs.id, songId), eq(songs.mediaStatus, 'processing')));
    },

    /**
     * A failed song back to 'processing', its new job enqueued by `enqueue` in the same
     * transaction. Null when the song was not 'failed' (nothing changes then).
     */
    async reprocess(
      songId: string,
      enqueue: (tx: Db) => Promise<unknown>,
    ): Promise<typeof songs.$inferSelect | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(songs)
          .set({ mediaStatus: 'processing' })
          .where(and(eq(songs.id, songId), eq(songs.mediaStatus, 'failed')))
          .returning();
        if (!row) return null;
        await enqueue(tx);
        return row;
      });
    },
  };
  return repository satisfies MediaJobPort;
}
