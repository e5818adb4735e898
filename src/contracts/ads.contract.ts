import { z } from 'zod';
import { adDescription, adDuration, adTargetUrl, adTitle } from '../core/validation/ad.rules.ts';
import { SONG_MEDIA_STATUSES, songLoudnessDto, songRenditionDto } from './songs.contract.ts';

/*
 * The ad inventory, showings (get-active-ads) and track-ad-impression (spec §3 Advertisement, §7
 * functions; docs/decisions/0023). Durations are seconds in the API
 * (milliseconds in the database); media URLs are signed as songs' are.
 */

export const adIdParams = z.object({ id: z.uuid() });

/** What listeners and admins both see of an ad: spec §3's fields and the ad's media. */
const adFields = {
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  /** Signed URL of the original audio (as songs' file_url); null without audio. */
  audio_url: z.string().nullable(),
  duration: z.number().describe('seconds'),
  target_url: z.string().nullable(),
  /** The audio through the media pipeline; 'ready' for an ad without audio. */
  status: z.enum(SONG_MEDIA_STATUSES),
  renditions: z.array(songRenditionDto),
  loudness: songLoudnessDto.nullable(),
};

/** An ad as the admin inventory lists it. */
export const adminAdDto = z.object({
  ...adFields,
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type AdminAdDto = z.infer<typeof adminAdDto>;

/**
 * An ad in the admin's list, with its impressions (paid per impression): all time, and
 * those of the last 30 days by the server's clock.
 */
export const adminAdListItem = adminAdDto.extend({
  impressions: z.number().int().nonnegative(),
  impressions_30d: z.number().int().nonnegative(),
});
export type AdminAdListItem = z.infer<typeof adminAdListItem>;

/** GET /api/admin/ads (admin): every ad, newest first, with its impression counts. */
export const adminAdList = z.object({ items: z.array(adminAdListItem) });
export type AdminAdList = z.infer<typeof adminAdList>;

/**
 * POST /api/admin/ads (admin, multipart: fields title, description, target_url, duration;
 * files `image` (≤ 5 MB, checked like a song's cover) and `audio` (≤ 100 MB, audio/*, checked
 * like a song)) → 201 AdminAdDto. The duration is the audio's when there is audio, else the
 * whole seconds given (1–600), else 30.
 * PATCH /api/admin/ads/{id} (admin, multipart, the same fields all optional, plus
 * remove_image / remove_audio = 'true'; a new file replaces the old; an empty description or
 * target_url clears it) → AdminAdDto. Unknown fields are refused (400).
 */
export const adFormFields = z.strictObject({
  title: adTitle().describe('the ad title (1–200 characters)'),
  description: adDescription().optional().describe('optional; empty clears'),
  target_url: adTargetUrl().optional().describe('an http or https address; empty clears'),
  duration: adDuration()
    .optional()
    .describe('whole seconds 1–600, used when there is no audio (default 30)'),
});
export type AdFormFields = z.infer<typeof adFormFields>;

export const adPatchFields = adFormFields.partial().extend({
  remove_image: z.literal('true').optional().describe("'true' removes the image"),
  remove_audio: z.literal('true').optional().describe("'true' removes the audio"),
});
export type AdPatchFields = z.infer<typeof adPatchFields>;

/** PUT /api/admin/ads/{id}/active (admin): deactivate or reactivate → AdminAdDto. */
export const adActiveBody = z.strictObject({ active: z.boolean() });
export type AdActiveBody = z.infer<typeof adActiveBody>;

/**
 * An ad as a showing hands it to one listener: spec §3's Advertisement, its media, and
 * `showing_id`, the showing the server wrote, which track-ad-impression takes back.
 */
export const adDto = z.object({
  ...adFields,
  showing_id: z.uuid(),
});
export type AdDto = z.infer<typeof adDto>;

/**
 * POST /api/ads/showings (signed in; 403 for a subscriber, 429 past the rate limit): the active
 * ad next in rotation (least recently shown first) in a new showing, or `ad: null` when no ad
 * is active or the frequency cap says not yet (`next_showing_at`: when one may be issued).
 */
export const adShowingResponse = z.object({
  ad: adDto.nullable(),
  next_showing_at: z.string().nullable(),
});
export type AdShowingResponse = z.infer<typeof adShowingResponse>;

/**
 * POST /api/ads/impressions (signed in): the listener saw the showing through. It counts only
 * for a showing issued to this listener (404 ad_showing_not_found), whose ad is still active
 * (409 ad_inactive), while the listener is free (403 ad_listener_premium), no sooner than the
 * ad's duration after the showing (409 ad_showing_too_early) and within the hour (410
 * ad_showing_expired); each refusal writes nothing. It is attributed to the song or episode the
 * listener's own stream record named when the showing was issued. A replay answers
 * `recorded: false` and writes nothing.
 */
export const adImpressionBody = z.strictObject({
  showing_id: z.uuid(),
});
export type AdImpressionBody = z.infer<typeof adImpressionBody>;

export const adImpressionResult = z.object({
  /** False when this showing's impression was already recorded (a replay). */
  recorded: z.boolean(),
  /** What the impression pays: the song or episode its showing named (null: nothing played). */
  song_id: z.uuid().nullable(),
  podcast_episode_id: z.uuid().nullable(),
});
export type AdImpressionResult = z.infer<typeof adImpressionResult>;
