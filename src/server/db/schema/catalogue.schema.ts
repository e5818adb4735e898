import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { GENRE_FILTERS } from '../../../core/validation/song.rules.ts';
import { createdAt, lengthBetween, nonNegative } from './columns.ts';

/*
 * Units and URLs, once for the whole catalogue:
 * - Durations are integer milliseconds (`duration_ms`), the unit listening records use
 *   (stream_analytics.listened_ms), so "completed = heard ≥ 90 %" is integer arithmetic.
 *   The API exposes spec §3 `duration` in seconds (duration_ms / 1000).
 * - `*_url` is what clients fetch: `/media/<bucket>/<key>` for stored files, or an
 *   absolute https URL for external catalogue previews. `*_key` is the storage key
 *   (`<uuid>.<ext>`, storage/storage.ts) within the column's bucket — file_key: music,
 *   cover_art_key: cover-art, audio_key: podcasts — so files can be deleted without
 *   parsing URLs; null when the file is not ours.
 */

/**
 * The media pipeline's state for a song (docs/decisions/0014): 'processing' from upload until
 * its renditions, loudness and waveform are stored, 'failed' once its job dead-letters.
 * Listeners play the original meanwhile, so 'ready' is the default for rows that never had a
 * job (external catalogue tracks, rows written by other means).
 */
export const songMediaStatusEnum = pgEnum('song_media_status', ['processing', 'ready', 'failed']);

export const songs = pgTable(
  'songs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Null for tracks that came from the external catalogue (`source` set).
    artistId: uuid('artist_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Display name of the artist, copied at upload (spec §3 `artist`). */
    artist: text('artist'),
    title: text('title').notNull(),
    genre: text('genre'),
    coverArtUrl: text('cover_art_url'),
    coverArtKey: text('cover_art_key'),
    fileUrl: text('file_url'),
    fileKey: text('file_key'),
    previewUrl: text('preview_url'),
    /** External catalogue name (e.g. 'itunes'); null for uploads. */
    source: text('source'),
    /** The track's id in `source`, so a catalogue track is stored at most once. */
    externalId: text('external_id'),
    durationMs: integer('duration_ms'),
    playCount: bigint('play_count', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    mediaStatus: songMediaStatusEnum('media_status').notNull().default('ready'),
    /** EBU R128 integrated loudness (LUFS) and true peak (dBTP) of the original; null until measured. */
    loudnessLufs: doublePrecision('loudness_lufs'),
    truePeakDbtp: doublePrecision('true_peak_dbtp'),
    /** The waveform peaks document (JSON in the music bucket, signed like audio). */
    waveformUrl: text('waveform_url'),
    waveformKey: text('waveform_key'),
  },
  (t) => [
    lengthBetween('songs_title_len', t.title, 1, 200),
    lengthBetween('songs_genre_len', t.genre, 0, 100),
    nonNegative('songs_duration_ms_nonneg', t.durationMs),
    nonNegative('songs_play_count_nonneg', t.playCount),
    // Playback needs a resolved audio URL (spec §4): the file or the preview.
    check('songs_playable', sql`${t.fileUrl} is not null or ${t.previewUrl} is not null`),
    // Newest / most played lists and the search sorts (ADR 0006 "Search plan") read these in
    // order, ties broken down to the id so a page is deterministic without a sort. These eight
    // sort indexes also carry (INCLUDE) the rest of id, title, genre, artist, play count and
    // date, so that search's heads and artists' songs are index-only scans: migration 0014,
    // since drizzle cannot express INCLUDE (ADR 0011 "Covering indexes").
    index('songs_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('songs_play_count_idx').on(
      t.playCount.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('songs_artist_created_idx').on(t.artistId, t.createdAt.desc().nullsFirst()),
    // Search's artist side: an artist's most played songs first (ADR 0011).
    index('songs_artist_play_count_idx').on(
      t.artistId,
      t.playCount.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // …and within a genre filter, that genre's songs of the artist in either order, where the
    // index above would read past the artist's other genres (ADR 0011 "Within a genre").
    index('songs_artist_genre_play_count_idx').on(
      t.artistId,
      sql`lower(${t.genre})`,
      t.playCount.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('songs_artist_genre_created_idx').on(
      t.artistId,
      sql`lower(${t.genre})`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Genre filters compare case-insensitively ('hip hop' vs 'Hip Hop', spec §9): the same
    // two orders within one genre (genre tiles, filtered search, search's genre side).
    index('songs_genre_created_idx').on(
      sql`lower(${t.genre})`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('songs_genre_play_count_idx').on(
      sql`lower(${t.genre})`,
      t.playCount.desc().nullsFirst(),
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Search is "title or genre contains" (ILIKE '%q%'): trigram GIN finds the matches of a
    // rare term. Relevance walks titles nearest first (`lower(title) <-> q`) in a trigram
    // GiST on lower(title): an expression, so that the planner never picks it for the
    // plain ILIKE, where its lossy signatures can read the whole index (ADR 0006).
    // fastupdate off: a pending list (up to 4 MB, flushed only by a vacuum, which PGlite never
    // runs on its own) would be read in full by every search; uploads are rare (ADR 0011).
    index('songs_title_trgm_idx')
      .using('gin', t.title.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    // A phrase (two words or more) is looked up by the pair of adjacent title words its
    // first two words can be, with what lies between them: `title_pairs()` (migration 0011)
    // lists a title's pairs, lower-cased and split as search_terms splits, where the
    // trigram GIN would AND the lists of two common words and recheck every title holding
    // both anywhere (ADR 0011 "Phrases").
    index('songs_title_pairs_idx')
      .using('gin', sql`title_pairs(${t.title})`)
      .with({ fastupdate: false }),
    // One word is looked up by the title words that contain it, `title_words()` (migration
    // 0011): exactly the titles containing it, where trigrams also give every title sharing
    // its trigrams anywhere, each then read and rechecked (ADR 0011 "Phrases").
    index('songs_title_words_idx')
      .using('gin', sql`title_words(${t.title})`)
      .with({ fastupdate: false }),
    index('songs_title_lower_trgm_gist_idx').using('gist', sql`lower(${t.title}) gist_trgm_ops`),
    // The same, one per genre of the search's genre filter: relevance within a genre walks
    // only that genre's titles nearest first, where the whole GiST would read the other
    // genres' titles and discard them (ADR 0011 "Within a genre").
    ...GENRE_FILTERS.filter((g) => g !== 'all').map((g) =>
      index(`songs_title_trgm_gist_${g.replace(/[^a-z]+/g, '_')}_idx`)
        .using('gist', sql`lower(${t.title}) gist_trgm_ops`)
        .where(sql`lower(${t.genre}) = ${sql.raw(`'${g}'`)}`),
    ),
    uniqueIndex('songs_source_external_key').on(t.source, t.externalId),
    // The own songs' ids in order: a Subsonic client's full listing (search3 with an empty
    // query) reads a page from the first id of the bucket its offset falls in (ADR 0034), and
    // getRandomSongs probes it with random uuids.
    index('songs_own_id_idx')
      .on(t.id)
      .where(sql`${t.source} is null`),
    // search3's text matches in its order (title, then id): a common word's first page is a
    // walk that stops at the page, where sorting every match would read them all (ADR 0034).
    index('songs_own_title_idx')
      .on(sql`lower(${t.title}) collate "C"`, t.id)
      .where(sql`${t.source} is null`),
  ],
);

/**
 * The words of every song's title, genre and artist (lower-cased, split at ASCII white
 * space and punctuation) with the number of songs holding each anywhere (`songs`) and in
 * the title (`titles`). Search reads it to bound how many titles can contain a query before
 * it touches songs, and its typo pass corrects a query's words against it (ADR 0011). Kept
 * by triggers on songs (migration 0003); a word whose count fell to 0 stays and is skipped.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
    songs: integer('songs').notNull(),
    titles: integer('titles').notNull(),
  },
  (t) => [
    index('search_terms_term_trgm_idx')
      .using('gin', t.term.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
  ],
);

/**
 * The distinct genres of the songs (lower-cased) with the number of songs of each: search
 * matches a query against these few values, then reads each matching genre's songs from
 * its own index (ADR 0011). Kept by the same triggers as `search_terms`.
 */
export const songGenres = pgTable('song_genres', {
  genre: text('genre').primaryKey(),
  songs: integer('songs').notNull(),
});

/**
 * The artists that have songs, with their name as the songs carry it (songs.artist, the
 * profile's display name) and how many songs each has: search matches artist names here,
 * among artists only, then reads each matching artist's songs from its own index
 * (ADR 0011). Kept by the same triggers as `search_terms`; no foreign key, so that a
 * user's deletion can cascade to songs and these counts in any order.
 */
export const songArtists = pgTable(
  'song_artists',
  {
    artistId: uuid('artist_id').primaryKey(),
    name: text('name'),
    songs: integer('songs').notNull(),
  },
  (t) => [
    index('song_artists_name_trgm_idx')
      .using('gin', t.name.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
  ],
);

export const podcasts = pgTable(
  'podcasts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    coverArtUrl: text('cover_art_url'),
    coverArtKey: text('cover_art_key'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    // The RSS feed's channel (ADR 0019): language (BCP 47), one Apple Podcasts category
    // (core/validation/podcast.rules.ts), explicit flag.
    language: text('language').notNull().default('en'),
    category: text('category').notNull().default('Music'),
    explicit: boolean('explicit').notNull().default(false),
    /** podcast:guid, UUIDv5 of the feed URL when the show was created; never changed after. */
    feedGuid: uuid('feed_guid'),
    /** The feed's itunes:owner e-mail, set by the creator (Apple contacts owners there). */
    ownerEmail: text('owner_email'),
  },
  (t) => [
    lengthBetween('podcasts_title_len', t.title, 1, 200),
    lengthBetween('podcasts_language_len', t.language, 2, 35),
    lengthBetween('podcasts_category_len', t.category, 1, 100),
    lengthBetween('podcasts_owner_email_len', t.ownerEmail, 3, 254),
    lengthBetween('podcasts_description_len', t.description, 0, 5000),
    index('podcasts_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    index('podcasts_creator_created_idx').on(t.creatorId, t.createdAt.desc().nullsFirst()),
    index('podcasts_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('podcasts_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
);

export const podcastEpisodes = pgTable(
  'podcast_episodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    podcastId: uuid('podcast_id')
      .notNull()
      .references(() => podcasts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    audioUrl: text('audio_url').notNull(),
    audioKey: text('audio_key'),
    durationMs: integer('duration_ms'),
    // Not unique: the default is 1 and spec §5 only asks for a whole number ≥ 1.
    episodeNumber: integer('episode_number').notNull().default(1),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    /** The kept original's size and type: the feed's enclosure length and type. */
    audioBytes: bigint('audio_bytes', { mode: 'number' }),
    audioMime: text('audio_mime'),
    /** The media pipeline's state, as for songs (ADR 0014). */
    mediaStatus: songMediaStatusEnum('media_status').notNull().default('ready'),
    loudnessLufs: doublePrecision('loudness_lufs'),
    truePeakDbtp: doublePrecision('true_peak_dbtp'),
    /** The waveform peaks document (JSON in the podcasts bucket, signed like audio). */
    waveformUrl: text('waveform_url'),
    waveformKey: text('waveform_key'),
    /** Downloads through the feed's public enclosure URL (a request from byte 0). */
    downloadCount: bigint('download_count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    lengthBetween('podcast_episodes_title_len', t.title, 1, 200),
    lengthBetween('podcast_episodes_description_len', t.description, 0, 5000),
    check('podcast_episodes_number_min', sql`${t.episodeNumber} >= 1`),
    nonNegative('podcast_episodes_duration_ms_nonneg', t.durationMs),
    nonNegative('podcast_episodes_audio_bytes_nonneg', t.audioBytes),
    nonNegative('podcast_episodes_download_count_nonneg', t.downloadCount),
    index('podcast_episodes_podcast_number_idx').on(
      t.podcastId,
      t.episodeNumber.desc().nullsFirst(),
    ),
  ],
);

/**
 * Who downloaded an episode on a UTC day, so that one listener counts once a day however
 * often their app asks (the IAB podcast measurement guidelines' one download per IP and user
 * agent per day, ADR 0019). `listener` is an HMAC of the IP and user agent under a key from
 * SECRET_KEY, never the address; days before yesterday are deleted as downloads are counted.
 */
export const podcastEpisodeDownloads = pgTable(
  'podcast_episode_downloads',
  {
    episodeId: uuid('episode_id')
      .notNull()
      .references(() => podcastEpisodes.id, { onDelete: 'cascade' }),
    listener: text('listener').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.episodeId, t.listener, t.day] }),
    index('podcast_episode_downloads_day_idx').on(t.day),
  ],
);

/**
 * A song's lyrics as its artist typed them (docs/decisions/0037): plain text or LRC, checked
 * before they are stored (times in order and within the song's duration), parsed when read.
 * Apart from `songs` so that song lists never carry up to 32 KB of text per row.
 */
export const songLyrics = pgTable(
  'song_lyrics',
  {
    songId: uuid('song_id')
      .primaryKey()
      .references(() => songs.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** LRC with timestamps (true) or plain lines. */
    synced: boolean('synced').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('song_lyrics_text_len', sql`octet_length(${t.text}) between 1 and 32768`)],
);
