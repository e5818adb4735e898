import { and, asc, eq, gt, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  adRenditions,
  ads,
  aiGenerations,
  playlists,
  podcastEpisodeRenditions,
  podcastEpisodes,
  podcasts,
  profiles,
  songRenditions,
  songs,
} from '../../db/schema/index.ts';
import type { Bucket } from '../../storage/storage.ts';
import { queryRows } from '../../db/sql-results.ts';

/**
 * What a row loses when its file is gone: the row itself when it is nothing without the
 * file (a song or episode that cannot play), or just the column, when the app has a
 * placeholder (covers, avatars, an ad's image); `keep` only protects the file.
 */
export type WhenMissing = 'delete-row' | 'clear' | 'keep';

type MediaColumn = {
  /** `<table>.<url column>`, for logs. */
  name: string;
  table: PgTable;
  id: PgColumn;
  /** What clients fetch: `/media/<bucket>/<key>` for a stored file, else an external URL. */
  url: PgColumn;
  /** The storage key (`<bucket>/<key>`, or a bare key in `bucket`), where the table keeps one. */
  key?: PgColumn;
  bucket: Bucket;
  whenMissing: WhenMissing;
};

/**
 * Every column that can point at stored media (grep the schema for `_url`, `_key`). A table
 * that gains one must be added here, or the reconciler deletes its files as orphans once
 * they are MEDIA_SWEEP_AGE_SECONDS old.
 */
const COLUMNS: MediaColumn[] = [
  {
    name: 'songs.file_url',
    table: songs,
    id: songs.id,
    url: songs.fileUrl,
    key: songs.fileKey,
    bucket: 'music',
    whenMissing: 'delete-row',
  },
  {
    name: 'songs.cover_art_url',
    table: songs,
    id: songs.id,
    url: songs.coverArtUrl,
    key: songs.coverArtKey,
    bucket: 'cover-art',
    whenMissing: 'clear',
  },
  // The media pipeline's outputs (docs/decisions/0014). A lost rendition loses its row (the
  // song still plays the original and the others); a lost waveform is just not drawn.
  {
    name: 'song_renditions.file_url',
    table: songRenditions,
    id: songRenditions.id,
    url: songRenditions.fileUrl,
    key: songRenditions.fileKey,
    bucket: 'music',
    whenMissing: 'delete-row',
  },
  {
    name: 'songs.waveform_url',
    table: songs,
    id: songs.id,
    url: songs.waveformUrl,
    key: songs.waveformKey,
    bucket: 'music',
    whenMissing: 'clear',
  },
  // External previews today; a stored one is protected, never repaired (songs_playable).
  {
    name: 'songs.preview_url',
    table: songs,
    id: songs.id,
    url: songs.previewUrl,
    bucket: 'music',
    whenMissing: 'keep',
  },
  {
    name: 'podcasts.cover_art_url',
    table: podcasts,
    id: podcasts.id,
    url: podcasts.coverArtUrl,
    key: podcasts.coverArtKey,
    bucket: 'cover-art',
    whenMissing: 'clear',
  },
  {
    name: 'podcast_episodes.audio_url',
    table: podcastEpisodes,
    id: podcastEpisodes.id,
    url: podcastEpisodes.audioUrl,
    key: podcastEpisodes.audioKey,
    bucket: 'podcasts',
    whenMissing: 'delete-row',
  },
  // Episodes' media pipeline outputs (docs/decisions/0018), as songs' above.
  {
    name: 'podcast_episode_renditions.file_url',
    table: podcastEpisodeRenditions,
    id: podcastEpisodeRenditions.id,
    url: podcastEpisodeRenditions.fileUrl,
    key: podcastEpisodeRenditions.fileKey,
    bucket: 'podcasts',
    whenMissing: 'delete-row',
  },
  {
    name: 'podcast_episodes.waveform_url',
    table: podcastEpisodes,
    id: podcastEpisodes.id,
    url: podcastEpisodes.waveformUrl,
    key: podcastEpisodes.waveformKey,
    bucket: 'podcasts',
    whenMissing: 'clear',
  },
  {
    name: 'profiles.avatar_url',
    table: profiles,
    id: profiles.id,
    url: profiles.avatarUrl,
    bucket: 'avatars',
    whenMissing: 'clear',
  },
  {
    name: 'playlists.cover_art_url',
    table: playlists,
    id: playlists.id,
    url: playlists.coverArtUrl,
    bucket: 'cover-art',
    whenMissing: 'clear',
  },
  {
    name: 'ads.image_url',
    table: ads,
    id: ads.id,
    url: ads.imageUrl,
    key: ads.imageKey,
    bucket: 'cover-art',
    whenMissing: 'clear',
  },
  {
    name: 'ads.audio_url',
    table: ads,
    id: ads.id,
    url: ads.audioUrl,
    key: ads.audioKey,
    bucket: 'music',
    whenMissing: 'clear',
  },
  // An ad's renditions (docs/decisions/0023), as songs': a lost one loses its row.
  {
    name: 'ad_renditions.file_url',
    table: adRenditions,
    id: adRenditions.id,
    url: adRenditions.fileUrl,
    key: adRenditions.fileKey,
    bucket: 'music',
    whenMissing: 'delete-row',
  },
  // The AI Music Creator's covers (docs/decisions/0031): a cover generation is its image.
  {
    name: 'ai_generations.image_url',
    table: aiGenerations,
    id: aiGenerations.id,
    url: aiGenerations.imageUrl,
    key: aiGenerations.imageKey,
    bucket: 'cover-art',
    whenMissing: 'delete-row',
  },
];

/** One row's pointer at storage, as stored (not yet parsed). */
export type MediaReference = {
  column: string;
  id: string;
  url: string | null;
  key: string | null;
  /** The bucket of a bare key. */
  bucket: Bucket;
  whenMissing: WhenMissing;
};

export type MediaReferencesRepository = ReturnType<typeof createMediaReferencesRepository>;

/**
 * Reads every row that points at stored media, and repairs one whose file is gone. It
 * reads other features' tables on purpose: it is the one place that knows all of them
 * (docs/decisions/0012).
 */
export function createMediaReferencesRepository(db: Db) {
  const byName = new Map(COLUMNS.map((c) => [c.name, c]));
  const nullSql = sql<string | null>`null`;
  const keyOf = (c: MediaColumn) => (c.key ?? nullSql) as SQL<string | null> | PgColumn;

  return {
    /**
     * Every reference, one column at a time, `pageSize` rows a page in primary-key order,
     * so a big catalogue is never held whole (neither here nor in the database's answer).
     */
    async *all(pageSize = 5000): AsyncGenerator<MediaReference> {
      for (const c of COLUMNS) {
        const present = c.key ? or(isNotNull(c.url), isNotNull(c.key)) : isNotNull(c.url);
        let after: string | undefined;
        for (;;) {
          const rows = (await db
            .select({ id: c.id, url: c.url, key: keyOf(c) })
            .from(c.table)
            .where(after === undefined ? present : and(present, gt(c.id, after)))
            .orderBy(asc(c.id))
            .limit(pageSize)) as Array<{ id: string; url: string | null; key: string | null }>;
          for (const r of rows) {
            yield {
              column: c.name,
              id: r.id,
              url: r.url,
              key: r.key,
              bucket: c.bucket,
              whenMissing: c.whenMissing,
            };
          }
          if (rows.length < pageSize) break;
          after = rows[rows.length - 1]!.id;
        }
      }
    },

    /**
     * Which of these stored objects some row references now, read fresh: the last look
     * before a file goes. Exact forms only (`/media/<bucket>/<key>`, `<bucket>/<key>`, a
     * bare key), as every writer stores them, so each column is one hash lookup per row.
     */
    async mentioned(objects: Array<{ bucket: Bucket; key: string }>): Promise<Set<string>> {
      const found = new Set<string>();
      if (objects.length === 0) return found;
      const formOf = new Map<string, string>();
      for (const { bucket, key } of objects) {
        for (const form of [`/media/${bucket}/${key}`, `${bucket}/${key}`, key])
          formOf.set(form, `${bucket}/${key}`);
      }
      const any = sql`any(${sql.param([...formOf.keys()])}::text[])`;
      for (const c of COLUMNS) {
        const hit = c.key ? sql`(${c.url} = ${any} or ${c.key} = ${any})` : sql`${c.url} = ${any}`;
        const rows = (await db
          .select({ url: c.url, key: keyOf(c) })
          .from(c.table)
          .where(hit)) as Array<{ url: string | null; key: string | null }>;
        for (const r of rows) {
          for (const value of [r.url, r.key]) {
            const object = value === null ? undefined : formOf.get(value);
            if (object) found.add(object);
          }
        }
      }
      return found;
    },

    /**
     * Deletes the row or clears its column, as the column's `whenMissing` says, but only if
     * it still holds exactly what was read: a row changed meanwhile (a new cover, a delete)
     * is left alone. True when something changed.
     */
    async repair(ref: MediaReference): Promise<boolean> {
      const c = byName.get(ref.column);
      if (!c || c.whenMissing === 'keep') return false;
      const same = and(
        eq(c.id, ref.id),
        sql`${c.url} is not distinct from ${ref.url}`,
        c.key ? sql`${c.key} is not distinct from ${ref.key}` : undefined,
      );
      if (c.whenMissing === 'delete-row') {
        const rows = await db.delete(c.table).where(same).returning({ id: c.id });
        return rows.length > 0;
      }
      const set = c.key
        ? sql`${sql.identifier(c.url.name)} = null, ${sql.identifier(c.key.name)} = null`
        : sql`${sql.identifier(c.url.name)} = null`;
      const updated = await queryRows(
        db,
        sql`update ${c.table} set ${set} where ${same} returning 1`,
      );
      return updated.length > 0;
    },
  };
}
