import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
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
import { lengthBetween, nonNegative } from './columns.ts';

/**
 * One row per play a signed-in user started (docs/decisions/0016). `listened_ms` is raised by
 * progress reports and clamped to the item's duration by the server; `completed` once
 * ≥ 90 % was heard. Stats and revenue aggregate these rows in SQL.
 */
export const streamAnalytics = pgTable(
  'stream_analytics',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    songId: uuid('song_id').references(() => songs.id, { onDelete: 'cascade' }),
    podcastEpisodeId: uuid('podcast_episode_id').references(() => podcastEpisodes.id, {
      onDelete: 'cascade',
    }),
    playedAt: timestamp('played_at', { withTimezone: true }).notNull().defaultNow(),
    listenedMs: integer('listened_ms').notNull().default(0),
    completed: boolean('completed').notNull().default(false),
    /** A play a Subsonic app reported afterwards (scrobble), not one started here. */
    scrobbled: boolean('scrobbled').notNull().default(false),
  },
  (t) => [
    // Exactly one item per play: a song or an episode.
    check('stream_analytics_one_item', sql`num_nonnulls(${t.songId}, ${t.podcastEpisodeId}) = 1`),
    nonNegative('stream_analytics_listened_ms_nonneg', t.listenedMs),
    index('stream_analytics_user_played_idx').on(t.userId, t.playedAt.desc().nullsFirst()),
    // No index holds listened_ms or completed (stats read listener_* below, ADR 0016), so a
    // progress report can be a HOT update.
    index('stream_analytics_song_played_idx').on(t.songId, t.playedAt),
    index('stream_analytics_episode_played_idx').on(t.podcastEpisodeId, t.playedAt),
    // The monthly revenue run reads one month of plays across all users.
    index('stream_analytics_played_idx').on(t.playedAt),
    // A phone replays its offline scrobbles until it hears back: the same (listener, song,
    // start) counts once. Only scrobbles: web starts keep the clock's time, which may repeat.
    uniqueIndex('stream_analytics_scrobble_key')
      .on(t.userId, t.songId, t.playedAt)
      .where(sql`${t.scrobbled}`),
  ],
);

/**
 * What each of a listener's Subsonic players says it is playing now (scrobble with
 * submission=false), one row per (listener, player), upserted; read by getNowPlaying from any
 * process. A row past `expires_at` is ignored and swept by its listener's next write.
 */
export const nowPlaying = pgTable(
  'now_playing',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    playerName: text('player_name').notNull(),
    /** Subsonic's numeric playerId, stable while the row lives. */
    playerId: integer('player_id').generatedAlwaysAsIdentity().notNull(),
    songId: uuid('song_id')
      .notNull()
      .references(() => songs.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'now_playing_pkey', columns: [t.userId, t.playerName] }),
    lengthBetween('now_playing_player_name_len', t.playerName, 1, 100),
    // An admin's getNowPlaying: every unexpired row.
    index('now_playing_expires_idx').on(t.expiresAt),
  ],
);

/**
 * A listener's saved play queue (Subsonic savePlayQueue), so another device resumes it: the
 * songs in order (no foreign key on an array: a deleted song is left out when read), the
 * current one by its place in the list (a song may be queued twice) and the position in it.
 */
export const playQueues = pgTable(
  'play_queues',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    songIds: uuid('song_ids').array().notNull(),
    currentIndex: integer('current_index'),
    positionMs: bigint('position_ms', { mode: 'number' }).notNull().default(0),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
    changedBy: text('changed_by').notNull(),
  },
  (t) => [
    nonNegative('play_queues_position_nonneg', t.positionMs),
    lengthBetween('play_queues_changed_by_len', t.changedBy, 0, 100),
    check('play_queues_songs_max', sql`cardinality(${t.songIds}) <= 1000`),
    check(
      'play_queues_current_index',
      sql`${t.currentIndex} >= 0 and ${t.currentIndex} < cardinality(${t.songIds})`,
    ),
  ],
);

/**
 * One row per song play not yet in songs.play_count (docs/decisions/0016): a play's start
 * appends here instead of updating its song, whose 23 indexes (8 with play_count) make every
 * update of it a non-HOT write; a periodic fold moves the counts in batches. No key, no index,
 * no foreign key: an append is the cheapest write there is, and the fold takes whatever is
 * there (a deleted song's rows match nothing and are dropped).
 */
export const playCountDeltas = pgTable('play_count_deltas', {
  songId: uuid('song_id').notNull(),
});

/**
 * A listener's figures not yet in the listener_* totals below (docs/decisions/0016): the
 * triggers on stream_analytics append each write's change here (a start +1 play, a report
 * its raise, a delete −1) instead of upserting the four totals tables in the write's own
 * statement, and a periodic fold (and a listener's stats read, for their own rows) applies
 * them in batches, oldest first. No foreign key: a deleted listener's rows are dropped by the
 * fold. The one index serves the stats read's fold of a single listener.
 */
export const listeningDeltas = pgTable(
  'listening_deltas',
  {
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    userId: uuid('user_id').notNull(),
    songId: uuid('song_id'),
    plays: integer('plays').notNull(),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull(),
    completed: integer('completed').notNull(),
  },
  (t) => [index('listening_deltas_user_idx').on(t.userId, t.id)],
);

/**
 * Per-artist daily rollup behind the dashboard (spec §7 get_artist_analytics): written by
 * the analytics job from stream_analytics, so the dashboard never scans raw plays.
 */
export const artistDailyAnalytics = pgTable(
  'artist_daily_analytics',
  {
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    analyticsDate: date('analytics_date', { mode: 'string' }).notNull(),
    totalStreams: integer('total_streams').notNull().default(0),
    uniqueListeners: integer('unique_listeners').notNull().default(0),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'artist_daily_analytics_pkey', columns: [t.artistId, t.analyticsDate] }),
    nonNegative('artist_daily_analytics_streams_nonneg', t.totalStreams),
    nonNegative('artist_daily_analytics_listeners_nonneg', t.uniqueListeners),
    check(
      'artist_daily_analytics_listeners_le_streams',
      sql`${t.uniqueListeners} <= ${t.totalStreams}`,
    ),
  ],
);

/*
 * A listener's running totals (ADR 0016, "Totals kept as plays are written"): stats read a
 * few rows of these instead of folding the listener's whole history. They are kept by
 * statement-level triggers on stream_analytics (migration 0007), so every writer — a play's
 * start, a progress report, the demo seed, a song's deletion cascading to its plays — moves
 * them in the same statement, and `listening_totals_rebuild()` recomputes them from scratch.
 */

/** All of a listener's plays (songs and episodes): the stats' totals. */
export const listenerTotals = pgTable(
  'listener_totals',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    streams: integer('streams').notNull(),
    completed: integer('completed').notNull(),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull(),
  },
  (t) => [
    nonNegative('listener_totals_streams_nonneg', t.streams),
    nonNegative('listener_totals_completed_nonneg', t.completed),
    nonNegative('listener_totals_listened_ms_nonneg', t.listenedMs),
  ],
);

/**
 * A listener's plays per song, with the song's artist and genre as they were at the
 * listener's first play of it: every later change of the song's figures goes to the same
 * artist and genre rows, so those stay exact sums. No foreign key to songs: a deleted song's
 * plays are subtracted (and this row removed) by the trigger on stream_analytics.
 */
export const listenerSongs = pgTable(
  'listener_songs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    songId: uuid('song_id').notNull(),
    plays: integer('plays').notNull(),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull(),
    artist: text('artist'),
    genre: text('genre'),
  },
  (t) => [
    primaryKey({ name: 'listener_songs_pkey', columns: [t.userId, t.songId] }),
    nonNegative('listener_songs_plays_nonneg', t.plays),
    // Top songs: the first rows of the listener's range.
    index('listener_songs_user_plays_idx').on(t.userId, t.plays.desc().nullsFirst()),
    // A genre's display spelling is that of its most played song (then the lowest spelling).
    index('listener_songs_user_genre_idx').on(
      t.userId,
      sql`lower(btrim(${t.genre}))`,
      t.plays.desc().nullsFirst(),
      t.genre,
    ),
  ],
);

/** A listener's plays per artist name (songs.artist), blank names left out. */
export const listenerArtists = pgTable(
  'listener_artists',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    streams: integer('streams').notNull(),
    listenedMs: bigint('listened_ms', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'listener_artists_pkey', columns: [t.userId, t.name] }),
    nonNegative('listener_artists_streams_nonneg', t.streams),
    // The stats' order exactly, so the top five are the range's first five entries.
    index('listener_artists_user_top_idx').on(
      t.userId,
      t.streams.desc().nullsFirst(),
      t.listenedMs.desc().nullsFirst(),
      t.name,
    ),
  ],
);

/** A listener's plays per genre, case- and space-insensitively (`lower(btrim(genre))`). */
export const listenerGenres = pgTable(
  'listener_genres',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    genre: text('genre').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [
    primaryKey({ name: 'listener_genres_pkey', columns: [t.userId, t.genre] }),
    nonNegative('listener_genres_count_nonneg', t.count),
    index('listener_genres_user_count_idx').on(t.userId, t.count.desc().nullsFirst()),
  ],
);

/**
 * Each episode's plays before `counted_until` (a UTC midnight), for the artist dashboard's
 * top episodes: episodes carry no play count, and counting a popular one's plays on every
 * read cost 150 ms at 100,000 plays. A read adds the days since `counted_until` once a day
 * and today's plays live. A play removed later (its listener's account deleted) stays
 * counted here.
 */
export const episodePlayTotals = pgTable(
  'episode_play_totals',
  {
    episodeId: uuid('episode_id')
      .primaryKey()
      .references(() => podcastEpisodes.id, { onDelete: 'cascade' }),
    plays: bigint('plays', { mode: 'number' }).notNull(),
    countedUntil: timestamp('counted_until', { withTimezone: true }).notNull(),
  },
  (t) => [nonNegative('episode_play_totals_plays_nonneg', t.plays)],
);
