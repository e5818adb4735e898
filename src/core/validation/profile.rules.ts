import { isInvisible } from './text.check.ts';
import { textLine } from './text.rules.ts';

// Spec §5 profile rules, §2 Profile/Following texts and §8 messages (docs/decisions/0020),
// shared by the profile and following screens and the server.

const MB = 1024 * 1024;

export const profileLimits = {
  displayNameMax: 50,
  bioMax: 500,
  /** Rows of the bio field (spec §5). */
  bioRows: 4,
  /** The avatar is checked like a song's cover (same store, same ceiling: spec §9 cover art). */
  avatarMaxBytes: 5 * MB,
  /** Songs and followed users per page of the profile's and /following's lists. */
  pageDefault: 48,
  pageMax: 100,
  /** Spec §9: skeleton cards while /following loads. */
  followingSkeletons: 4,
} as const;

export const profileMessages = {
  anonymous: 'Anonymous User',
  displayNameTooLong: 'Display name must be less than 50 characters',
  bioTooLong: 'Bio must be less than 500 characters',
  avatarNotImage: 'The avatar file must be an image',
  avatarTooLarge: 'Avatar must be less than 5MB',
  avatarRequired: 'Please select an image for your avatar',
  notFound: 'Profile not found',
  loadFailed: 'Failed to load profile',
  updateFailed: 'Failed to update profile',
  updated: 'Profile updated successfully',
  followFailed: 'Failed to update follow status',
  followed: 'Following',
  unfollowed: 'Unfollowed',
  selfFollow: 'You cannot follow yourself',
  followingLoadFailed: 'Failed to load following list',
  unfollowFailed: 'Failed to unfollow',
  unfollowedFromList: 'Unfollowed successfully',
  noSongs: 'No songs uploaded yet',
  uploadFirst: 'Upload Your First Song',
  notFollowing: 'Not following anyone yet',
  browseArtists: 'Browse Artists',
  newFollowerTitle: 'New follower',
} as const;

/** The new_follower notification a followed user gets (docs/decisions/0020). */
export const newFollowerMessage = (followerName: string | null): string =>
  `${followerName ?? profileMessages.anonymous} started following you`;

/** Spec §2: 'Anonymous User' when the profile has no display name. */
export const profileName = (displayName: string | null | undefined): string =>
  displayName?.trim() ? displayName : profileMessages.anonymous;

/** Spec §2: singular 'follower' when 1. */
export const followerCountLabel = (n: number): string =>
  `${n} ${n === 1 ? 'follower' : 'followers'}`;

/** Trimmed, at most 50; blank (nothing that shows) is stored as null (spec §5). */
export const profileDisplayName = () =>
  textLine().max(profileLimits.displayNameMax, { error: profileMessages.displayNameTooLong });

/** Trimmed at both ends (inner line breaks kept), at most 500; blank is stored as null. */
export const profileBio = () =>
  textLine().max(profileLimits.bioMax, { error: profileMessages.bioTooLong });

/** A checked name or bio as stored: null when blank or when only invisible characters remain. */
export const storedProfileText = (value: string | null): string | null =>
  value === null || isInvisible(value) ? null : value;
