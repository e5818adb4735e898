import {
  bigint,
  check,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { podcastEpisodes, songs } from './catalogue.schema.ts';
import { ads } from './money.schema.ts';
import { createdAt, nonNegative } from './columns.ts';

/*
 * Every rendition table has the same columns and rules after its owner's id: one row per
 * format, written only once its file is stored whole.
 */
const renditionColumns = () => ({
  /** 'opus-96', 'opus-160', 'aac-128' (media/renditions.ts RENDITIONS). */
  format: text('format').notNull(),
  codec: text('codec').notNull(),
  /** What the player asks canPlayType about, e.g. `audio/webm; codecs=opus`. */
  mime: text('mime').notNull(),
  bitrateKbps: integer('bitrate_kbps').notNull(),
  fileUrl: text('file_url').notNull(),
  fileKey: text('file_key').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  durationMs: integer('duration_ms').notNull(),
  createdAt: createdAt(),
});

const renditionRules = (
  table: string,
  ownerFormatIndex: string,
  owner: AnyPgColumn,
  t: { format: AnyPgColumn; codec: AnyPgColumn; bytes: AnyPgColumn; durationMs: AnyPgColumn },
) => [
  uniqueIndex(ownerFormatIndex).on(owner, t.format),
  check(`${table}_codec`, sql`${t.codec} in ('opus', 'aac')`),
  nonNegative(`${table}_bytes_nonneg`, t.bytes),
  nonNegative(`${table}_duration_ms_nonneg`, t.durationMs),
];

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
    ...renditionColumns(),
  },
  (t) => renditionRules('song_renditions', 'song_renditions_song_format_idx', t.songId, t),
);

/**
 * A podcast episode's streaming renditions: the same formats and rules as a song's
 * (song_renditions above), files in the podcasts bucket (`/media/podcasts/<key>`,
 * `podcasts/<key>`).
 */
export const podcastEpisodeRenditions = pgTable(
  'podcast_episode_renditions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    episodeId: uuid('episode_id')
      .notNull()
      .references(() => podcastEpisodes.id, { onDelete: 'cascade' }),
    ...renditionColumns(),
  },
  (t) =>
    renditionRules(
      'podcast_episode_renditions',
      'podcast_episode_renditions_episode_format_idx',
      t.episodeId,
      t,
    ),
);

/** An ad's streaming renditions: the same formats and rules as a song's (music bucket). */
export const adRenditions = pgTable(
  'ad_renditions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    ...renditionColumns(),
  },
  (t) => renditionRules('ad_renditions', 'ad_renditions_ad_format_idx', t.adId, t),
);
