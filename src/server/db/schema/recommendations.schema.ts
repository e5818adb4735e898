import { index, pgTable, primaryKey, real, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { songs } from './catalogue.schema.ts';
import { playlists } from './library.schema.ts';

/**
 * Each song's most co-listened songs (docs/decisions/0032): rewritten whole by the
 * recommendations' neighbours job from the listeners' most played songs, so a request reads a
 * few index ranges instead of following listeners through millions of plays. `score` is the
 * pair's cosine similarity over listeners, shrunk when few listeners share it.
 */
export const songNeighbours = pgTable(
  'song_neighbours',
  {
    songId: uuid('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    neighbourId: uuid('neighbour_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    score: real('score').notNull(),
  },
  (t) => [
    primaryKey({ name: 'song_neighbours_pkey', columns: [t.songId, t.neighbourId] }),
    // Deleting a song cascades here from either side; without this index that is a scan.
    index('song_neighbours_neighbour_idx').on(t.neighbourId),
  ],
);

/**
 * A listener's AI mix (docs/decisions/0032): the playlist 'Generate AI Playlist' made last,
 * whose tracks a new generation replaces. Gone with the playlist.
 */
export const aiMixes = pgTable('ai_mixes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  playlistId: uuid('playlist_id')
    .notNull()
    .unique('ai_mixes_playlist_key')
    .references(() => playlists.id, { onDelete: 'cascade' }),
  generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
});
