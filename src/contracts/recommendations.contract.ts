import { z } from 'zod';
import {
  recommendationGenreRule,
  recommendationLimits,
} from '../core/validation/recommendation.rules.ts';
import { songDto } from './songs.contract.ts';

/*
 * Recommendations (docs/decisions/0032): a signed-in listener's songs from their listening,
 * likes and follows, and the AI mix 'Generate AI Playlist' makes of them.
 */

/** GET /api/recommendations. */
export const recommendationsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(recommendationLimits.maxLimit)
    .default(recommendationLimits.defaultLimit)
    .describe(`1–${recommendationLimits.maxLimit}, default ${recommendationLimits.defaultLimit}`),
  genre: recommendationGenreRule
    .optional()
    .describe("only songs of this genre, ignoring case (e.g. 'jazz')"),
});
export type RecommendationsQuery = z.input<typeof recommendationsQuery>;

export const recommendationsDto = z.object({
  /** False for a listener without history: the songs are the most played (cold start). */
  personal: z.boolean(),
  songs: z.array(songDto),
});
export type RecommendationsDto = z.infer<typeof recommendationsDto>;

/** POST /api/recommendations/playlist: the listener's AI mix, made or made again. */
export const aiMixDto = z.object({
  playlist_id: z.uuid(),
  title: z.string(),
  track_count: z.number().int(),
  /** False when the listener's previous AI mix got the new tracks. */
  created: z.boolean(),
});
export type AiMixDto = z.infer<typeof aiMixDto>;

/** GET /api/recommendations/playlist: which playlist is the listener's AI mix, if any. */
export const currentAiMixDto = z.object({ playlist_id: z.uuid().nullable() });
export type CurrentAiMixDto = z.infer<typeof currentAiMixDto>;
