import { bigint, check, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { songs } from './catalogue.schema.ts';
import { createdAt, nonNegative } from './columns.ts';

/**
 * A song's streaming renditions (docs/decisions/0014), made by the media pipeline from the
 * kept original: one row per format, written only once its file is stored whole. A song
 * has at most one of each format; deleting the song deletes the rows (its service deletes
 * the files). The file columns follow the catalogue's convention (catalogue.schema.ts):
 * `file_url` `/media/music/<key>`, `file_key` `music/<key>`.
 */
export const songRenditions = pgTable(
  'song_renditions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    songId: uuid('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    /** 'opus-96', 'opus-160', 'aac-128' (media/renditions.ts RENDITIONS). */
    format: text('format').notNull(),
    codec: text('codec').notNull(),
    /** What the player asks canPlayType about, e.g. `audio/ogg; codecs=opus`. */
    mime: text('mime').notNull(),
    bitrateKbps: integer('bitrate_kbps').notNull(),
    fileUrl: text('file_url').notNull(),
    fileKey: text('file_key').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('song_renditions_song_format_idx').on(t.songId, t.format),
    check('song_renditions_codec', sql`${t.codec} in ('opus', 'aac')`),
    nonNegative('song_renditions_bytes_nonneg', t.bytes),
    nonNegative('song_renditions_duration_ms_nonneg', t.durationMs),
  ],
);
