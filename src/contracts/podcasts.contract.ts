import { z } from 'zod';
import {
  episodeNumber,
  episodeTitle,
  PODCAST_CATEGORIES,
  podcastDescription,
  podcastLimits,
  podcastMessages,
  podcastOwnerEmail,
  podcastTitle,
} from '../core/validation/podcast.rules.ts';
import { SONG_MEDIA_STATUSES, songLoudnessDto, songRenditionDto } from './songs.contract.ts';

/*
 * Podcast shows, episodes, listening progress and the RSS feed (docs/decisions/0018, 0019; spec §2
 * Podcasts and Podcast upload, §3 podcasts and podcast_episodes, §5 rules). Times are ISO strings;
 * durations seconds in the API (milliseconds in the database).
 */

export const podcastIdParams = z.object({ id: z.uuid() });
export const episodeIdParams = z.object({ id: z.uuid() });

export const podcastShowDto = z.object({
  id: z.uuid(),
  creator_id: z.uuid(),
  /** The creator's display name: the feed's itunes:author. */
  creator_name: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  cover_art_url: z.string().nullable(),
  language: z.string(),
  category: z.enum(PODCAST_CATEGORIES),
  explicit: z.boolean(),
  /** The feed's itunes:owner e-mail (published in the feed); null until the creator sets it. */
  owner_email: z.string().nullable(),
  episode_count: z.number().int(),
  /** Absolute URL of the show's public RSS feed (stable; podcast apps subscribe to it). */
  feed_url: z.string(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type PodcastShowDto = z.infer<typeof podcastShowDto>;

/** GET /api/podcasts: every show, newest first (signed in). */
export const podcastList = z.object({ items: z.array(podcastShowDto) });
export type PodcastList = z.infer<typeof podcastList>;

/** GET /api/me/podcasts (artist): the caller's own shows, newest first, for the upload form. */

/** The listener's place in an episode; null when never started. */
export const episodeProgressDto = z.object({
  position: z.number().describe('seconds'),
  completed: z.boolean(),
  updated_at: z.string(),
});
export type EpisodeProgressDto = z.infer<typeof episodeProgressDto>;

export const episodeDto = z.object({
  id: z.uuid(),
  podcast_id: z.uuid(),
  podcast_title: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** Signed URL of the original (as songs' file_url). */
  audio_url: z.string(),
  duration: z.number().nullable().describe('seconds'),
  episode_number: z.number().int(),
  published_at: z.string(),
  cover_art_url: z.string().nullable().describe("the show's cover"),
  status: z.enum(SONG_MEDIA_STATUSES),
  renditions: z.array(songRenditionDto),
  loudness: songLoudnessDto.nullable(),
  waveform_url: z.string().nullable(),
  progress: episodeProgressDto.nullable(),
});
export type EpisodeDto = z.infer<typeof episodeDto>;

/** GET /api/podcasts/{id}: one show with its episodes, episode_number descending. */
export const podcastDetail = z.object({
  podcast: podcastShowDto,
  episodes: z.array(episodeDto),
  /** Whether the server's PUBLIC_URL is set; unset, feed links name localhost. */
  public_url_set: z.boolean(),
});
export type PodcastDetail = z.infer<typeof podcastDetail>;

/**
 * POST /api/podcasts (artist, multipart: fields title, description, language, category,
 * explicit ('true'/'false'), owner_email, optional file `cover`) → 201 PodcastShowDto.
 * PATCH /api/podcasts/{id} (creator, multipart, same fields all optional; a new cover
 * replaces the old file) → PodcastShowDto. Unknown fields are refused (400).
 */
export const podcastFields = z.strictObject({
  title: podcastTitle().describe('the show title (1–200 characters)'),
  description: podcastDescription().optional().describe('optional'),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { error: podcastMessages.language })
    .max(podcastLimits.languageMax, { error: podcastMessages.language })
    .optional()
    .describe('a language tag, e.g. en'),
  category: z
    .enum(PODCAST_CATEGORIES, { error: podcastMessages.category })
    .optional()
    .describe('an Apple Podcasts category'),
  explicit: z.enum(['true', 'false']).optional().describe("'true' or 'false'"),
  owner_email: podcastOwnerEmail()
    .optional()
    .describe("the feed's itunes:owner e-mail; '' clears it"),
});
export type PodcastFields = z.infer<typeof podcastFields>;

/**
 * POST /api/podcasts/{id}/episodes (the show's creator, multipart: fields title,
 * description, episode_number (whole ≥ 1, default 1), file `audio`) → 201 EpisodeDto with
 * status 'processing'. Duration is read from the file. Messages of spec §5; unknown fields
 * are refused (400).
 */
export const episodeFields = z.strictObject({
  title: episodeTitle().describe('the episode title'),
  description: podcastDescription().optional().describe('optional'),
  episode_number: episodeNumber().optional().describe('a whole number ≥ 1; default 1'),
});
export type EpisodeFields = z.infer<typeof episodeFields>;

/*
 * DELETE /api/podcasts/{id} (the show's creator) → 204: the show, its episodes and their
 * files. DELETE /api/episodes/{id} (its show's creator) → 204: the episode and its files.
 * Another artist 403, a listener 403, an unknown id 404, a malformed one 400.
 */

/** PUT /api/me/episode-progress/{id}: where the listener is now (signed in). */
export const episodeProgressBody = z.strictObject({
  position: z
    .number({ error: podcastMessages.position })
    .min(0, { error: podcastMessages.position })
    .max(24 * 3600, { error: podcastMessages.position })
    .describe('seconds'),
  /** The client says so at the end; the server also marks it within PLAYED_WITHIN_MS_OF_END. */
  completed: z.boolean().optional(),
});
export type EpisodeProgressBody = z.infer<typeof episodeProgressBody>;

// Public, no session (podcast apps):
// GET /api/podcasts/{id}/feed.xml → application/rss+xml (RSS 2.0, itunes + podcast namespaces)
// GET /api/episodes/{id}/audio → the original with Range (never expires), counts a download
//   when a request starts at byte 0.
