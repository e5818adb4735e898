import { z } from 'zod';
import {
  adDescription,
  adDuration,
  adMessages,
  adTargetUrl,
  adTitle,
} from '../core/validation/ad.rules.ts';
import { UUID_PATTERN } from '../core/uuid.ts';
import { SONG_MEDIA_STATUSES, songLoudnessDto, songRenditionDto } from './songs.contract.ts';

/*
 * The ad inventory, get-active-ads and track-ad-impression (spec §3 Advertisement, §7
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

/** The form of a showing: `<uuid>.<expiry, base 36 seconds>.<HMAC-SHA256, base64url>`. */
export const SHOWING_PATTERN = new RegExp(`^${UUID_PATTERN}\\.[0-9a-z]{1,12}\\.[\\w-]{43}$`);

/**
 * An ad as get-active-ads hands it to one listener: spec §3's Advertisement, its media, and
 * `showing_id`, the signed token of this one showing that track-ad-impression takes back.
 */
export const adDto = z.object({
  ...adFields,
  showing_id: z.string(),
});
export type AdDto = z.infer<typeof adDto>;

/**
 * GET /api/ads/active (signed in, not subscribed: 403 for a subscriber): the active ad next in
 * rotation (least recently shown first), or null when no ad is active.
 */
export const activeAdResponse = z.object({ ad: adDto.nullable() });
export type ActiveAdResponse = z.infer<typeof activeAdResponse>;

/**
 * POST /api/ads/impressions (signed in): the listener was shown `ad_id` in the showing
 * get-active-ads handed out, while this song or episode played (neither: nothing played).
 * At most one impression per showing: a replay answers `recorded: false` and writes nothing.
 */
export const adImpressionBody = z
  .strictObject({
    ad_id: z.uuid(),
    showing_id: z.string().max(128).regex(SHOWING_PATTERN, { error: adMessages.showingNotIssued }),
    song_id: z.uuid().nullable().optional(),
    podcast_episode_id: z.uuid().nullable().optional(),
  })
  .refine((b) => !(b.song_id && b.podcast_episode_id), {
    error: adMessages.oneItem,
    path: ['podcast_episode_id'],
  });
export type AdImpressionBody = z.infer<typeof adImpressionBody>;

export const adImpressionResult = z.object({
  /** False when this showing's impression was already recorded (a replay). */
  recorded: z.boolean(),
});
export type AdImpressionResult = z.infer<typeof adImpressionResult>;
