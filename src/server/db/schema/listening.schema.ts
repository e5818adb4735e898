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
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { podcastEpisodes, songs } from './catalogue.schema.ts';
import { nonNegative } from './columns.ts';

/**
 * One row per play a signed-in user started (product.md §4). `listened_ms` is raised by
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
  },
  (t) => [
    // Exactly one item per play: a song or an episode.
    check('stream_analytics_one_item', sql`num_nonnulls(${t.songId}, ${t.podcastEpisodeId}) = 1`),
    nonNegative('stream_analytics_listened_ms_nonneg', t.listenedMs),
    index('stream_analytics_user_played_idx').on(t.userId, t.playedAt.desc().nullsFirst()),
    // A listener's stats fold their plays per song from this index alone (an index-only scan:
    // listened_ms and completed are key columns, as drizzle has no INCLUDE), never visiting
    // the heap rows scattered among everyone's plays (ADR 0016).
    index('stream_analytics_user_song_idx').on(t.userId, t.songId, t.listenedMs, t.completed),
    index('stream_analytics_song_played_idx').on(t.songId, t.playedAt),
    index('stream_analytics_episode_played_idx').on(t.podcastEpisodeId, t.playedAt),
    // The monthly revenue run reads one month of plays across all users.
    index('stream_analytics_played_idx').on(t.playedAt),
  ],
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
