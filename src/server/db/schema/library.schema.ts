import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { podcastEpisodes, songs } from './catalogue.schema.ts';
import { createdAt, lengthBetween, nonNegative } from './columns.ts';

// A listener's own collections. Everything here belongs to one user and goes with them.

export const playlists = pgTable(
  'playlists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    isPublic: boolean('is_public').notNull().default(true),
    coverArtUrl: text('cover_art_url'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    lengthBetween('playlists_title_len', t.title, 1, 100),
    lengthBetween('playlists_description_len', t.description, 0, 500),
    index('playlists_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
  ],
);

export const playlistTracks = pgTable(
  'playlist_tracks',
  {
    playlistId: uuid('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    songId: uuid('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    // Not unique: removals leave gaps and reordering rewrites positions in one statement.
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A song appears once per playlist (spec §3); 23505 → 'Already in playlist'.
    primaryKey({ name: 'playlist_tracks_pkey', columns: [t.playlistId, t.songId] }),
    nonNegative('playlist_tracks_position_nonneg', t.position),
    index('playlist_tracks_playlist_position_idx').on(t.playlistId, t.position),
    // Deleting a song cascades here; without this index that is a scan.
    index('playlist_tracks_song_idx').on(t.songId),
  ],
);

export const likedSongs = pgTable(
  'liked_songs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    songId: uuid('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('liked_songs_user_song_key').on(t.userId, t.songId),
    index('liked_songs_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    index('liked_songs_song_idx').on(t.songId),
  ],
);

export const userFollows = pgTable(
  'user_follows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followingId: uuid('following_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    // Also serves "who do I follow" and the follower-side count (leading column).
    uniqueIndex('user_follows_pair_key').on(t.followerId, t.followingId),
    check('user_follows_not_self', sql`${t.followerId} <> ${t.followingId}`),
    index('user_follows_following_idx').on(t.followingId, t.createdAt.desc().nullsFirst()),
  ],
);

/**
 * Where a listener is in an episode (docs/decisions/0018): kept on the server so another device
 * resumes there too. `completed` once the end was (nearly) reached; it stays true when the
 * listener plays it again, while `position_ms` follows them.
 */
export const episodeProgress = pgTable(
  'episode_progress',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    episodeId: uuid('episode_id')
      .notNull()
      .references(() => podcastEpisodes.id, { onDelete: 'cascade' }),
    positionMs: integer('position_ms').notNull().default(0),
    completed: boolean('completed').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'episode_progress_pkey', columns: [t.userId, t.episodeId] }),
    nonNegative('episode_progress_position_ms_nonneg', t.positionMs),
    // Deleting an episode cascades here.
    index('episode_progress_episode_idx').on(t.episodeId),
  ],
);
