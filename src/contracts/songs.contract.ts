import { z } from 'zod';
import {
  listSizes,
  searchQueryRule,
  SEARCH_SORTS,
  SEARCH_TYPES,
  songGenreRule,
  songTitleRule,
} from '../core/validation/song.rules.ts';
import { lyricsRule } from '../core/validation/lyrics.rules.ts';

/** A song's media pipeline state (docs/decisions/0014): 'processing' until its renditions exist. */
export const SONG_MEDIA_STATUSES = ['processing', 'ready', 'failed'] as const;
export type SongMediaStatus = (typeof SONG_MEDIA_STATUSES)[number];

/** A streaming rendition that is ready, signed like other audio URLs. */
export const songRenditionDto = z.object({
  url: z.string(),
  mime: z.string().describe("e.g. 'audio/webm; codecs=opus', 'audio/mp4; codecs=mp4a.40.2'"),
  codec: z.enum(['opus', 'aac']),
  bitrate_kbps: z.number().int(),
  bytes: z.number().int(),
  duration: z.number().describe('seconds'),
});
export type SongRenditionDto = z.infer<typeof songRenditionDto>;

/** EBU R128 measurements and the gain the player applies (target -14 LUFS, peak <= -1 dBTP). */
export const songLoudnessDto = z.object({
  integrated_lufs: z.number(),
  true_peak_dbtp: z.number(),
  gain_db: z.number(),
});
export type SongLoudnessDto = z.infer<typeof songLoudnessDto>;

/** The JSON document behind `waveform_url`. */
export const waveformDocument = z.object({
  version: z.literal(1),
  buckets: z.number().int(),
  peaks: z.array(z.number().int().min(0).max(255)),
});
export type WaveformDocument = z.infer<typeof waveformDocument>;

/**
 * Spec §3 songs. Uploaded songs have a uuid id and a `file_url` under /media; tracks from
 * the external catalogue are not stored: their id is `<source>:<external id>`, `source` is
 * set, `file_url` is null and `preview_url` is a 30 s https preview (spec §4: playback uses
 * file_url, else preview_url).
 */
export const songDto = z.object({
  id: z.string(),
  artist_id: z.uuid().nullable(),
  artist: z.string().nullable(),
  title: z.string(),
  genre: z.string().nullable(),
  cover_art_url: z.string().nullable(),
  file_url: z.string().nullable(),
  preview_url: z.string().nullable(),
  source: z.string().nullable(),
  duration: z.number().nullable().describe('seconds (millisecond precision)'),
  play_count: z.number().int(),
  created_at: z.string().describe('ISO timestamp'),
  /** External catalogue tracks: 'ready', no renditions, no loudness, no waveform. */
  status: z.enum(SONG_MEDIA_STATUSES),
  /** Sorted by bitrate ascending; `file_url` stays the original (High quality, fallback). */
  renditions: z.array(songRenditionDto),
  loudness: songLoudnessDto.nullable(),
  waveform_url: z.string().nullable().describe('signed URL of a WaveformDocument'),
  /** GET /api/songs/{id}/lyrics has them. */
  has_lyrics: z.boolean(),
});
export type SongDto = z.infer<typeof songDto>;

/** Spec §3 podcasts, as search lists them. */
export const podcastDto = z.object({
  id: z.uuid(),
  creator_id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  cover_art_url: z.string().nullable(),
  created_at: z.string(),
});
export type PodcastDto = z.infer<typeof podcastDto>;

/** GET /api/songs/home: spec §2 Recent Tracks and Popular Tracks. */
export const homeResponse = z.object({
  recent: z.array(songDto),
  popular: z.array(songDto),
  /** True when the catalogue is empty and both lists come from the external catalogue. */
  external: z.boolean(),
});
export type HomeResponse = z.infer<typeof homeResponse>;

/** GET /api/songs/browse: spec §2 Trending Now and New Releases. */
export const browseResponse = z.object({
  trending: z.array(songDto),
  new_releases: z.array(songDto),
});
export type BrowseResponse = z.infer<typeof browseResponse>;

/** GET /api/songs?genre=…: a Browse-by-Genre tile. */
export const songListQuery = z.object({
  genre: songGenreRule.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(listSizes.search),
});
export const songList = z.object({ songs: z.array(songDto) });

export const searchQuery = z.object({
  q: searchQueryRule.default(''),
  type: z.enum(SEARCH_TYPES).default('songs'),
  genre: songGenreRule.optional(),
  sort: z.enum(SEARCH_SORTS).default('relevance'),
  limit: z.coerce.number().int().min(1).max(listSizes.search).default(listSizes.search),
});
export type SearchQuery = z.input<typeof searchQuery>;

export const searchResponse = z.object({
  songs: z.array(songDto),
  podcasts: z.array(podcastDto),
  /** True when the own catalogue had no song and `songs` are external catalogue tracks. */
  external: z.boolean(),
});
export type SearchResponse = z.infer<typeof searchResponse>;

export const songIdParams = z.object({ id: z.uuid() });

export const songEditBody = z
  .object({
    title: songTitleRule.min(1, 'Title is required').optional(),
    genre: songGenreRule.nullable().optional(),
    lyrics: lyricsRule
      .nullable()
      .optional()
      .describe('plain text or LRC; null or blank removes them; times within the duration'),
  })
  .strict();
export type SongEditBody = z.infer<typeof songEditBody>;

/**
 * The text fields of POST /api/songs (multipart, beside the files `file` and `cover`): both
 * optional, each as the upload form checks it.
 */
export const songUploadText = z.object({
  title: songTitleRule.optional().describe('defaults to the tag title, then the file name'),
  genre: songGenreRule.optional().describe('defaults to the tag genre'),
  lyrics: lyricsRule
    .optional()
    .describe("plain text or LRC ≤ 32 KB; LRC times within the audio's duration"),
});

/** Multipart field names of POST /api/songs and PUT /api/songs/:id/cover. */
export const songUploadFields = {
  title: 'title',
  genre: 'genre',
  lyrics: 'lyrics',
  file: 'file',
  cover: 'cover',
} as const;

/** GET /api/songs/{id}/lyrics: lines in time order (synced) or as typed (plain). */
export const songLyricsDto = z.object({
  synced: z.boolean(),
  lines: z.array(
    z.object({
      time_ms: z.number().int().nullable().describe('when the line starts; null when unsynced'),
      text: z.string(),
    }),
  ),
  text: z.string().describe('the lyrics as the artist typed them'),
});
export type SongLyricsDto = z.infer<typeof songLyricsDto>;
