import { z } from 'zod';
import { songDto } from './songs.contract.ts';

/*
 * Listening records, recently played and stats (issue 9; spec §2 Recently played and
 * Stats, §3 User stats result, product.md §4). Times are ISO strings; durations the client
 * reports are milliseconds, the unit of stream_analytics.listened_ms.
 */

/** Stats lists are this long (spec §9: top songs shown 5); activity covers this many days. */
export const STATS_TOP = 5;
export const STATS_ACTIVITY_DAYS = 7;
/** Spec §9: recently played shows 20. */
export const RECENTLY_PLAYED_LIMIT = 20;
/** A play is completed once this share of the item's duration was heard (product.md §4). */
export const COMPLETED_SHARE = 0.9;
/** listened_ms is a PostgreSQL integer; anything above is refused rather than overflowing. */
const MAX_LISTENED_MS = 2_147_483_647;

/** POST /api/plays: a signed-in user started a song (podcast episodes will join later). */
export const playStartBody = z.object({ song_id: z.uuid() });
export type PlayStartBody = z.infer<typeof playStartBody>;

export const playStarted = z.object({
  id: z.uuid(),
  played_at: z.string().describe('ISO timestamp'),
});
export type PlayStarted = z.infer<typeof playStarted>;

export const playIdParams = z.object({ id: z.uuid() });

/** PATCH /api/plays/{id}: the TOTAL heard so far in this play. */
export const playProgressBody = z.object({
  listened_ms: z.number().int().min(0).max(MAX_LISTENED_MS),
});
export type PlayProgressBody = z.infer<typeof playProgressBody>;

export const playProgress = z.object({
  id: z.uuid(),
  listened_ms: z.number().int().describe("kept: the highest report, clamped to the item's length"),
  completed: z.boolean().describe('at least 90 % heard; stays true once reached'),
});
export type PlayProgress = z.infer<typeof playProgress>;

/** GET /api/me/recently-played: the caller's last 20 plays, newest first. */
export const recentlyPlayed = z.object({
  items: z.array(
    z.object({
      play_id: z.uuid(),
      played_at: z.string().describe('ISO timestamp'),
      song: songDto,
    }),
  ),
});
export type RecentlyPlayed = z.infer<typeof recentlyPlayed>;
export type RecentlyPlayedItem = RecentlyPlayed['items'][number];

/** GET /api/me/stats: spec §3 User stats result, all computed by SQL. */
export const userStats = z.object({
  totalStreams: z.number().int(),
  totalHours: z.number().describe('hours heard, two decimals'),
  completionRate: z.number().describe('percent of plays completed, 0–100, one decimal'),
  completedStreams: z.number().int(),
  topArtists: z
    .array(z.object({ name: z.string(), streams: z.number().int(), hours: z.number() }))
    .describe('top 5 by streams'),
  topGenres: z
    .array(z.object({ genre: z.string(), count: z.number().int() }))
    .describe('top 5 by plays'),
  topSongs: z
    .array(z.object({ title: z.string(), plays: z.number().int() }))
    .describe('top 5 by plays'),
  activityData: z
    .array(z.object({ date: z.string().describe('YYYY-MM-DD (UTC)'), streams: z.number().int() }))
    .describe('the last 7 days including today (UTC), oldest first, days without plays included'),
});
export type UserStats = z.infer<typeof userStats>;

/** GET /api/subscription: spec check-subscription. */
export const subscriptionStatus = z.object({ subscribed: z.boolean() });
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;
