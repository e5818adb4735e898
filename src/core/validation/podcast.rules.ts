import { z } from 'zod';
import { songLimits } from './song.rules.ts';
import { textLine } from './text.rules.ts';

// Spec §5 podcast show and episode rules, §8 messages, and what podcast listeners expect
// beyond the spec (speeds, skips, played state): shared by the podcast screens, the player
// and the server.

export const podcastLimits = {
  titleMax: 200,
  descriptionMax: 5000,
  episodeTitleMax: 200,
  episodeDescriptionMax: 5000,
  audioMaxBytes: songLimits.audioMaxBytes,
  coverMaxBytes: songLimits.coverMaxBytes,
  languageMax: 35,
  ownerEmailMax: 254,
} as const;

export const podcastMessages = {
  onlyArtists: 'Only artists can upload podcasts',
  titleRequired: 'Please enter a podcast title',
  titleTooLong: 'Title must be less than 200 characters',
  descriptionTooLong: 'Description must be less than 5000 characters',
  created: 'Podcast created! Now you can upload episodes.',
  updated: 'Podcast updated successfully!',
  podcastRequired: 'Please select a podcast',
  episodeTitleRequired: 'Please enter an episode title',
  episodeTitleTooLong: 'Title must be less than 200 characters',
  audioRequired: 'Please upload an audio file',
  audioType: 'Please upload an audio file (MP3, WAV, M4A, etc.)',
  audioTooLarge: 'Audio file must be less than 100MB',
  episodeNumber: 'Episode number must be a whole number, at least 1',
  episodeUploaded: 'Episode uploaded successfully!',
  loadPodcastsFailed: 'Failed to load podcasts',
  loadEpisodesFailed: 'Failed to load episodes',
  loadPodcastFailed: 'Failed to load podcast',
  podcastNotFound: 'Podcast not found',
  episodeNotFound: 'Episode not found',
  noArtwork: 'This show has no cover art of its own',
  notCreator: "Only the show's creator can change it or add episodes",
  // Deleting an episode or a show (its creator only): the web's confirm and toasts.
  deleteEpisodeTitle: 'Delete episode?',
  deleteShowTitle: 'Delete show?',
  episodeDeleted: 'Episode deleted',
  showDeleted: 'Show deleted',
  deleteEpisodeFailed: 'Failed to delete episode',
  deleteShowFailed: 'Failed to delete show',
  // An episode whose media processing failed for good: its creator may run it again.
  episodeStillProcessing: 'This episode is still being processed',
  episodeNotFailed: 'Only an episode whose processing failed can be processed again',
  reprocessEpisodeFailed: 'Failed to retry processing',
  category: 'Choose a category from the list',
  language: 'Language must be a language tag such as en or pt-BR',
  ownerEmail: 'Please enter a valid email address for the show owner',
  // The show page, to its creator, when feed links would name localhost.
  publicUrlUnset:
    'PUBLIC_URL is not set on this server, so the feed links say localhost and podcast apps cannot reach them. Ask the server admin to set PUBLIC_URL.',
  ownerEmailMissing:
    "Add an owner email in the show's settings: Apple Podcasts asks for one in the feed.",
  position: 'Position must be a number of seconds, at least 0',
} as const;

/** Apple Podcasts' top-level categories: the feed's itunes:category must be one of them. */
export const PODCAST_CATEGORIES = [
  'Arts',
  'Business',
  'Comedy',
  'Education',
  'Fiction',
  'Government',
  'Health & Fitness',
  'History',
  'Kids & Family',
  'Leisure',
  'Music',
  'News',
  'Religion & Spirituality',
  'Science',
  'Society & Culture',
  'Sports',
  'Technology',
  'True Crime',
  'TV & Film',
] as const;
export type PodcastCategory = (typeof PODCAST_CATEGORIES)[number];

/** The speeds a podcast plays at, and the skip buttons while one plays. */
export {
  PLAYBACK_RATES,
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from './podcast-playback.rules.ts';
/** An episode counts as played once this close to its end (or 95 % heard). */
export const PLAYED_WITHIN_MS_OF_END = 30_000;

export const podcastTitle = () =>
  textLine(podcastMessages.titleRequired)
    .min(1, { error: podcastMessages.titleRequired })
    .max(podcastLimits.titleMax, { error: podcastMessages.titleTooLong });

export const podcastDescription = () =>
  textLine().max(podcastLimits.descriptionMax, { error: podcastMessages.descriptionTooLong });

/**
 * The feed's itunes:owner e-mail: '' clears it (a form field), anything else must be an
 * address, kept lowercased as sign-up keeps them.
 */
export const podcastOwnerEmail = () =>
  z
    .string()
    .trim()
    .max(podcastLimits.ownerEmailMax, { error: podcastMessages.ownerEmail })
    .pipe(z.union([z.literal(''), z.email({ error: podcastMessages.ownerEmail }).toLowerCase()]));

export const episodeTitle = () =>
  textLine(podcastMessages.episodeTitleRequired)
    .min(1, { error: podcastMessages.episodeTitleRequired })
    .max(podcastLimits.episodeTitleMax, { error: podcastMessages.episodeTitleTooLong });

/** A form field: '3' → 3; '0', '1.5', 'x', '' are refused with one message. */
export const episodeNumber = () =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, { error: podcastMessages.episodeNumber })
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= 1, { error: podcastMessages.episodeNumber });
