import { z } from 'zod';
import { songLimits } from './song.rules.ts';
import { textLine } from './text.rules.ts';

// The ad inventory (docs/decisions/0023; spec §3 Advertisement): the limits and
// messages the admin form and the server share. The spec gives no ad texts of its own; the
// upload ones are the song and episode forms' (spec §5), the rest say what was wrong.

export const adLimits = {
  titleMax: 200,
  descriptionMax: 500,
  targetUrlMax: 2048,
  durationMinSeconds: 1,
  durationMaxSeconds: 600,
  /** Spec §3: duration in seconds; an ad without audio and without one given shows for 30. */
  defaultDurationSeconds: 30,
  audioMaxBytes: songLimits.audioMaxBytes,
  imageMaxBytes: songLimits.coverMaxBytes,
  /** The admin list's recent impressions: those of the last 30 days (`impressions_30d`). */
  recentImpressionDays: 30,
} as const;

export const adMessages = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be less than 200 characters',
  descriptionTooLong: 'Description must be less than 500 characters',
  targetUrl: 'Target URL must be an http or https address',
  targetUrlTooLong: 'Target URL must be at most 2048 characters',
  duration: 'Duration must be a whole number of seconds, from 1 to 600',
  audioType: 'Please upload an audio file (MP3, WAV, M4A, etc.)',
  audioTooLarge: 'Audio file must be less than 100MB',
  imageType: 'Please choose an image file',
  imageTooLarge: 'Image must be less than 5MB',
  imageInvalid: 'Image validation failed. Please ensure you are uploading a valid image file.',
  replaceOrRemove: 'Send a new file or remove the current one, not both',
  adNotFound: 'Ad not found',
  subscriberNoAds: 'Premium listeners see no ads',
  showingNotFound: 'No such showing was issued to you',
  showingExpired: 'This showing has expired',
  showingTooEarly: 'The ad has not played for its whole duration yet',
  adInactive: 'This ad is no longer active',
  listenerPremium: 'Premium listeners are not shown ads',
  created: 'Ad created',
  updated: 'Ad updated',
  activated: 'Ad activated',
  deactivated: 'Ad deactivated',
  loadFailed: 'Failed to load ads',
  saveFailed: 'Failed to save ad',
  updateFailed: 'Failed to update ad',
} as const;

/**
 * An address an ad may send a listener to: http or https with a host, no user name or
 * password in it (`https://bank.example@evil.example` reads as the bank's).
 */
export function isAdTargetUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

export const adTitle = () =>
  textLine(adMessages.titleRequired)
    .min(1, { error: adMessages.titleRequired })
    .max(adLimits.titleMax, { error: adMessages.titleTooLong });

/** Optional; an empty one clears it on an edit. */
export const adDescription = () =>
  textLine().max(adLimits.descriptionMax, { error: adMessages.descriptionTooLong });

/** Optional; an empty one clears it on an edit. */
export const adTargetUrl = () =>
  textLine()
    .max(adLimits.targetUrlMax, { error: adMessages.targetUrlTooLong })
    .refine((v) => v === '' || isAdTargetUrl(v), { error: adMessages.targetUrl });

/** A form field of whole seconds: '30' → 30; '0', '1.5', '601', 'x', '' are refused. */
export const adDuration = () =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, { error: adMessages.duration })
    .transform(Number)
    .refine((n) => n >= adLimits.durationMinSeconds && n <= adLimits.durationMaxSeconds, {
      error: adMessages.duration,
    });

/** The first problem of an ad form as the admin typed it (null when it may be sent). */
export function adFormProblem(form: {
  title: string;
  description: string;
  targetUrl: string;
  duration: string;
}): { field: 'title' | 'description' | 'target_url' | 'duration'; message: string } | null {
  const checks = [
    ['title', adTitle().safeParse(form.title)],
    ['description', adDescription().safeParse(form.description)],
    ['duration', form.duration.trim() === '' ? null : adDuration().safeParse(form.duration.trim())],
    ['target_url', adTargetUrl().safeParse(form.targetUrl)],
  ] as const;
  for (const [field, result] of checks) {
    if (result && !result.success) return { field, message: result.error.issues[0]!.message };
  }
  return null;
}
