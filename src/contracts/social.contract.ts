import { z } from 'zod';
import { profileBio, profileDisplayName, profileLimits } from '../core/validation/profile.rules.ts';
import { songDto } from './songs.contract.ts';
import { UUID_PATTERN } from '../core/uuid.ts';

/*
 * Profiles, follows and the following list (docs/decisions/0020; spec §2 Profile and
 * Following, §3 profiles and user_follows, §4 follow and profile edit, §5 profile rules).
 * Everything here needs a session. Times are ISO strings; counts are computed by SQL on
 * every read. Bodies are strict: an unknown key (user_id, avatar_url…) is a 400 and
 * nothing is written.
 */

export const profileParams = z.object({ userId: z.uuid() });

export const profileDto = z.object({
  user_id: z.uuid(),
  /** Null when the user set none; the screens show 'Anonymous User'. */
  display_name: z.string().nullable(),
  bio: z.string().nullable(),
  avatar_url: z.string().nullable(),
  follower_count: z.number().int(),
  following_count: z.number().int(),
  /** Whether the caller follows this user; always false on one's own profile. */
  is_following: z.boolean(),
  /** The caller's own profile: Edit Profile instead of Follow. */
  is_own: z.boolean(),
  is_artist: z.boolean(),
  song_count: z.number().int(),
  /** Plays of all their songs. */
  total_plays: z.number().int(),
  member_since: z.string().describe('ISO timestamp of the account’s creation'),
});
export type ProfileDto = z.infer<typeof profileDto>;

/**
 * PATCH /api/me/profile → ProfileDto. Both trimmed; blank (or null) clears to null. A key
 * left out is left as it is. The avatar has its own upload (PUT /api/me/profile/avatar).
 */
export const updateProfileBody = z.strictObject({
  display_name: profileDisplayName().nullable().optional(),
  bio: profileBio().nullable().optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

/** The multipart field of PUT /api/me/profile/avatar. */
export const AVATAR_FIELD = 'avatar';

/**
 * A page of a newest-first list. The cursor is opaque (it names a position, not a row, so a
 * row deleted meanwhile does not end the list).
 */
export const pageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(profileLimits.pageMax)
    .default(profileLimits.pageDefault),
  cursor: z
    .string()
    // Microseconds (16 digits reach the year 2286) and a row's id, as the server made it.
    .regex(new RegExp(`^[0-9]{1,16}_${UUID_PATTERN}$`), {
      error: 'Invalid cursor',
    })
    .optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** GET /api/profiles/{userId}/songs: the songs they uploaded, newest first. */
export const profileSongs = z.object({
  songs: z.array(songDto),
  next_cursor: z.string().nullable(),
});
export type ProfileSongs = z.infer<typeof profileSongs>;

/** PUT/DELETE /api/follows/{userId} (idempotent) → the state after the change. */
export const followState = z.object({
  is_following: z.boolean(),
  follower_count: z.number().int(),
});
export type FollowState = z.infer<typeof followState>;

export const followedUser = z.object({
  user_id: z.uuid(),
  display_name: z.string().nullable(),
  bio: z.string().nullable(),
  avatar_url: z.string().nullable(),
  follower_count: z.number().int(),
  song_count: z.number().int(),
  followed_at: z.string(),
});
export type FollowedUser = z.infer<typeof followedUser>;

/** GET /api/me/following: who the caller follows, newest follow first; `total` of all pages. */
export const followingList = z.object({
  total: z.number().int(),
  items: z.array(followedUser),
  next_cursor: z.string().nullable(),
});
export type FollowingList = z.infer<typeof followingList>;
