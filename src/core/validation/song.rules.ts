import { z } from 'zod';
import { cleanLine, isInvisible, stripBidiControls } from './text.check.ts';
import { textLine } from './text.rules.ts';

// Spec §5 (song upload) and §9 (lists, genres, sorts): the exact messages and constants,
// shared by the upload form, the search screen and the server.

const MB = 1024 * 1024;

export const songLimits = {
  audioMaxBytes: 100 * MB,
  coverMaxBytes: 5 * MB,
  titleMax: 200,
  genreMax: 100,
  /** Longest search query the API accepts (a title is at most 200 characters). */
  queryMax: 200,
} as const;

export const songMessages = {
  fileRequired: 'Please select a music file to upload',
  audioTooLarge: 'Audio file must be less than 100MB',
  coverTooLarge: 'Cover art must be less than 5MB',
  titleTooLong: 'Title must be less than 200 characters',
  // A title typed as nothing but invisible characters, or a blank one on an edit.
  titleRequired: 'Title is required',
  genreTooLong: 'Genre must be less than 100 characters',
  // Spec §8 upload messages, for content that is not what its name says.
  audioInvalid: 'Music file validation failed. Please ensure you are uploading a valid audio file.',
  coverInvalid: 'Cover art validation failed. Please ensure you are uploading a valid image file.',
  fileInvalid: 'File validation failed. Please ensure you are uploading a valid file.',
  queryTooLong: 'Search query must be at most 200 characters',
  queryNul: 'Search query must not contain NUL characters',
} as const;

/** Spec §2 Browse-by-Genre tiles and the upload form's genre choices. */
export const GENRES = [
  'Pop',
  'Rock',
  'Hip Hop',
  'Electronic',
  'Jazz',
  'Classical',
  'R&B',
  'Country',
] as const;
export type Genre = (typeof GENRES)[number];

/** Spec §9 search genre filter: 'all' means no filter; the rest match genres case-insensitively. */
export const GENRE_FILTERS = [
  'all',
  'pop',
  'rock',
  'hip hop',
  'electronic',
  'jazz',
  'classical',
  'r&b',
  'country',
] as const;
export type GenreFilter = (typeof GENRE_FILTERS)[number];

export const SEARCH_SORTS = ['relevance', 'popular', 'recent'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SEARCH_TYPES = ['songs', 'podcasts'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Spec §9 list sizes. */
export const listSizes = {
  /** Home reads the newest 12 and shows 6 per section. */
  homeFetch: 12,
  homeSection: 6,
  browseSection: 6,
  search: 20,
  externalFallback: 20,
  searchDebounceMs: 300,
} as const;

/**
 * A title as typed (text.rules.ts: no NUL, no direction controls, trimmed). Blank is allowed
 * here (an upload then derives one), but one made only of zero-width or format characters is
 * refused: it would show as an empty title.
 */
export const songTitleRule = textLine()
  .max(songLimits.titleMax, songMessages.titleTooLong)
  .refine((title) => title === '' || !isInvisible(title), songMessages.titleRequired);
/** A genre as typed; one of only invisible characters counts as none. */
export const songGenreRule = textLine()
  .max(songLimits.genreMax, songMessages.genreTooLong)
  .overwrite((genre) => (isInvisible(genre) ? '' : genre));

/** The upload form's fields in spec §5 order; title may be blank (the server derives one). */
export const songUploadRules = z.object({
  file: z
    .object({ size: z.number() }, { message: songMessages.fileRequired })
    .refine((f) => f.size <= songLimits.audioMaxBytes, songMessages.audioTooLarge),
  cover: z
    .object({ size: z.number() })
    .refine((f) => f.size <= songLimits.coverMaxBytes, songMessages.coverTooLarge)
    .nullish(),
  title: songTitleRule.optional(),
  genre: songGenreRule.optional(),
});

/** Edits after upload: a title may not be blank then. */
export const songEditRules = z.object({
  title: songTitleRule.min(1, songMessages.titleRequired).optional(),
  genre: songGenreRule.optional(),
});

/**
 * A search query the server accepts: at most 200 characters and no NUL (PostgreSQL text
 * cannot hold one). Blank means "no search" and gives an empty result.
 */
export const searchQueryRule = z
  .string()
  .max(songLimits.queryMax, songMessages.queryTooLong)
  .refine((q) => !q.includes('\0'), songMessages.queryNul)
  // Stored text holds none, so they could only keep a query from matching.
  .overwrite(stripBidiControls);

/** 'all' or a blank filter means no genre filter; otherwise the lower-cased genre to match. */
export function genreFilterValue(genre: string | undefined | null): string | null {
  const g = genre?.trim().toLowerCase();
  return !g || g === 'all' ? null : g;
}

/** Spec §2 fallback when a song has no artist name: 'Artist' + first 8 of artist_id, or 'Unknown'. */
export function artistLabel(song: { artist?: string | null; artist_id?: string | null }): string {
  if (song.artist) return song.artist;
  if (song.artist_id) return `Artist ${song.artist_id.slice(0, 8)}`;
  return 'Unknown';
}

/**
 * Text from a file's tags or name, fit to store: no control characters (a tag may hold a NUL,
 * which PostgreSQL text cannot), no direction controls, trimmed and cut to `max`; nothing
 * when no visible character is left.
 */
function cleanTagText(s: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = cleanLine(s.replace(/[\u0000-\u001f\u007f]/g, ''))
    .slice(0, max)
    .trim();
  return isInvisible(clean) ? '' : clean;
}

/**
 * The title to store when the form left it blank (every song has a title): the file's tag title,
 * then the file name without its extension and any directory part, cut to the limit.
 */
export function defaultSongTitle(
  tagTitle: string | undefined | null,
  fileName: string | undefined | null,
): string {
  const clean = (s: string) => cleanTagText(s, songLimits.titleMax);
  const fromTag = clean(tagTitle ?? '');
  if (fromTag) return fromTag;
  const base = (fileName ?? '').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const fromName = clean(dot > 0 ? base.slice(0, dot) : base);
  return fromName || 'Untitled';
}

/** The genre to store when the form left it blank: the file's tag genre, cleaned, or none. */
export function defaultSongGenre(tagGenre: string | undefined | null): string | null {
  return cleanTagText(tagGenre ?? '', songLimits.genreMax) || null;
}
