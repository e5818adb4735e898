import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { createdAt, lengthBetween } from './columns.ts';

// Subsonic app passwords (docs/decisions/0034): a phone app signs in with one of these, never
// with the account password. The secret is sealed with the app's key (token auth needs the
// plain secret to compute md5(secret + salt)); a revoked row is deleted.
export const subsonicAppPasswords = pgTable(
  'subsonic_app_passwords',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sealedSecret: text('sealed_secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    lengthBetween('subsonic_app_passwords_name_len', t.name, 1, 100),
    index('subsonic_app_passwords_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * The OpenSubsonic albums (one artist's own uploads of one UTC year, docs/decisions/0034)
 * with their totals, so that album lists and the artist index read a row per album instead
 * of grouping songs on every call. Kept by statement triggers on songs (migration 0034), never
 * written by code: an album is recomputed from its songs when one of them is written, and a
 * play-count fold only adds its delta. `genres` holds the songs' genres lower-cased (byGenre);
 * `shuffle` is a random key that random lists probe.
 */
export const subsonicAlbums = pgTable(
  'subsonic_albums',
  {
    artistId: uuid('artist_id').notNull(),
    year: integer('year').notNull(),
    artist: text('artist'),
    songCount: integer('song_count').notNull().default(0),
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull().default(0),
    playCount: bigint('play_count', { mode: 'number' }).notNull().default(0),
    /** The album's first and newest upload. */
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    latest: timestamp('latest', { withTimezone: true }).notNull().defaultNow(),
    /** The most common genre as written (ties: the first in C order). */
    genre: text('genre'),
    genres: text('genres')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    shuffle: uuid('shuffle').notNull().defaultRandom(),
  },
  (t) => [
    primaryKey({ columns: [t.artistId, t.year] }),
    // One index per list order, ties broken down to the key, so a page is a walk; the name
    // orders also INCLUDE the name in migration 0034 (drizzle cannot say so), for index-only walks.
    index('subsonic_albums_newest_idx').on(t.latest.desc(), t.artistId, t.year),
    index('subsonic_albums_frequent_idx').on(
      t.playCount.desc(),
      t.latest.desc(),
      t.artistId,
      t.year,
    ),
    index('subsonic_albums_name_idx').on(sql`lower(${t.artist}) collate "C"`, t.year, t.artistId),
    index('subsonic_albums_year_idx').on(t.year, sql`lower(${t.artist}) collate "C"`, t.artistId),
    index('subsonic_albums_year_desc_idx').on(
      t.year.desc(),
      sql`lower(${t.artist}) collate "C"`,
      t.artistId,
    ),
    index('subsonic_albums_genres_idx').using('gin', t.genres).with({ fastupdate: false }),
    index('subsonic_albums_artist_trgm_idx')
      .using('gin', t.artist.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    index('subsonic_albums_shuffle_idx').on(t.shuffle),
  ],
);

/**
 * How many own songs' ids start with each 3-hex-digit prefix (4096 buckets of the uuid space):
 * search3's full listing turns a client's offset into "the bucket it falls in, then a short
 * OFFSET within it", exact at any depth. Kept by the same triggers as subsonic_albums.
 */
export const subsonicSongBuckets = pgTable('subsonic_song_buckets', {
  prefix: integer('prefix').primaryKey(),
  songs: integer('songs').notNull(),
});

/**
 * Each album under each of its genres (lower-cased), in the name order: getAlbumList2 byGenre
 * walks one genre's slice of the primary key instead of sorting every album of a common
 * genre. Kept by the same triggers as subsonic_albums (subsonic_albums_refresh).
 */
export const subsonicAlbumGenres = pgTable(
  'subsonic_album_genres',
  {
    genre: text('genre').notNull(),
    /** lower(artist), as the albums' name order sorts (C collation, no name last). */
    sortName: text('sort_name'),
    year: integer('year').notNull(),
    artistId: uuid('artist_id').notNull(),
  },
  (t) => [
    index('subsonic_album_genres_walk_idx').on(
      t.genre,
      sql`${t.sortName} collate "C"`,
      t.year,
      t.artistId,
    ),
    index('subsonic_album_genres_album_idx').on(t.artistId, t.year),
  ],
);

/**
 * Each artist's number of Subsonic albums (getArtists' albumCount), kept by the same triggers
 * as subsonic_albums, so that the artist index reads a row per artist.
 */
export const subsonicArtists = pgTable('subsonic_artists', {
  artistId: uuid('artist_id').primaryKey(),
  albumCount: integer('album_count').notNull().default(0),
});

/**
 * One row: a number that grows whenever the artist index changes (an album or artist comes
 * or goes, a name changes: every album recompute), bumped by the same triggers, so that a
 * server may keep the built index and ask only this before answering getArtists.
 */
export const subsonicIndexVersion = pgTable('subsonic_index_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});
