import { z } from 'zod';
import { listeningMessages, MAX_LISTENED_MS } from '../core/validation/listening.rules.ts';
import { episodeDto } from './podcasts.contract.ts';
import { songDto } from './songs.contract.ts';

/*
 * Listening records, recently played and stats (docs/decisions/0016; spec §2 Recently played
 * and Stats, §3 User stats result). Times are ISO strings; durations the client
 * reports are milliseconds, the unit of stream_analytics.listened_ms.
 */

/** POST /api/plays: a signed-in user started a song or a podcast episode. */
export const playStartBody = z.union([
  z.strictObject({ song_id: z.uuid() }),
  z.strictObject({ episode_id: z.uuid() }),
]);
export type PlayStartBody = z.infer<typeof playStartBody>;

export const playStarted = z.object({
  id: z.uuid(),
  played_at: z.string().describe('ISO timestamp'),
});
export type PlayStarted = z.infer<typeof playStarted>;

export const playIdParams = z.object({ id: z.uuid() });

/** PATCH /api/plays/{id}: the TOTAL heard so far in this play. */
export const playProgressBody = z.object({
  listened_ms: z
    .number({ error: listeningMessages.listenedMs })
    .int({ error: listeningMessages.listenedMs })
    .min(0, { error: listeningMessages.listenedMs })
    .max(MAX_LISTENED_MS, { error: listeningMessages.listenedMs }),
});
export type PlayProgressBody = z.infer<typeof playProgressBody>;

export const playProgress = z.object({
  id: z.uuid(),
  listened_ms: z.number().int().describe("kept: the highest report, clamped to the item's length"),
  completed: z.boolean().describe('at least 90 % heard; stays true once reached'),
});
export type PlayProgress = z.infer<typeof playProgress>;

/**
 * PUT /api/offline-plays/{id}: a play heard while offline, sent afterwards under the id the
 * device gave it; sent again (an answer lost), it is the same play, counted once.
 */
const offlinePlayFields = {
  started_at: z.iso.datetime({ offset: true }).describe('when the play started (ISO timestamp)'),
  listened_ms: playProgressBody.shape.listened_ms,
};
export const offlinePlayBody = z.union([
  z.strictObject({ song_id: z.uuid(), ...offlinePlayFields }),
  z.strictObject({ episode_id: z.uuid(), ...offlinePlayFields }),
]);
export type OfflinePlayBody = z.infer<typeof offlinePlayBody>;

export const offlinePlayRecorded = playProgress.extend({
  recorded: z
    .boolean()
    .describe('true when this request recorded the play, false when it was already'),
});
export type OfflinePlayRecorded = z.infer<typeof offlinePlayRecorded>;

const playedItem = {
  play_id: z.uuid(),
  played_at: z.string().describe('ISO timestamp'),
};

/** GET /api/me/recently-played: the caller's last 20 plays of songs and episodes, newest first. */
export const recentlyPlayed = z.object({
  items: z.array(
    z.discriminatedUnion('kind', [
      z.object({ ...playedItem, kind: z.literal('song'), song: songDto }),
      z.object({ ...playedItem, kind: z.literal('episode'), episode: episodeDto }),
    ]),
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

// GET /api/subscription's shape lives with premium now; kept here for existing importers.
export { subscriptionStatus, type SubscriptionStatus } from './premium.contract.ts';
