import { z } from 'zod';

// The OpenSubsonic response shapes (opensubsonic.netlify.app, "Responses"), as zod schemas of
// the JSON envelope's inside, one per method Canto serves. Fields the documentation marks
// required are required; every optional field the server may send is typed, so that a wrong
// type fails as surely as a missing field. Objects are loose: a newer OpenSubsonic field a
// server adds is not an error, but each method's envelope is strict about its payload key.

const isoDate = z.iso.datetime({ offset: true });
const int = z.number().int();
const nonNegativeInt = int.nonnegative();

/** ItemGenre: `genres` of a song or an album. */
export const itemGenre = z.object({ name: z.string() });

/** ArtistID3 as a song's `artists` or an album's `artists` carry it: the required part. */
export const artistRef = z.object({ id: z.string().min(1), name: z.string() });

export const replayGain = z.object({
  trackGain: z.number().optional(),
  albumGain: z.number().optional(),
  trackPeak: z.number().optional(),
  albumPeak: z.number().optional(),
  baseGain: z.number().optional(),
  fallbackGain: z.number().optional(),
});

export const contributor = z.object({
  role: z.string(),
  subRole: z.string().optional(),
  artist: artistRef,
});

const mediaType = z.enum(['music', 'podcast', 'audiobook', 'video']);

/** Child: a song (or a directory in getMusicDirectory). */
export const child = z.object({
  id: z.string().min(1),
  parent: z.string().optional(),
  isDir: z.boolean(),
  title: z.string(),
  album: z.string().optional(),
  artist: z.string().optional(),
  track: int.optional(),
  year: int.optional(),
  genre: z.string().optional(),
  coverArt: z.string().optional(),
  size: nonNegativeInt.optional(),
  contentType: z.string().optional(),
  suffix: z.string().optional(),
  transcodedContentType: z.string().optional(),
  transcodedSuffix: z.string().optional(),
  duration: nonNegativeInt.optional(),
  bitRate: nonNegativeInt.optional(),
  bitDepth: nonNegativeInt.optional(),
  samplingRate: nonNegativeInt.optional(),
  channelCount: nonNegativeInt.optional(),
  path: z.string().optional(),
  isVideo: z.boolean().optional(),
  userRating: int.min(1).max(5).optional(),
  averageRating: z.number().min(1).max(5).optional(),
  playCount: nonNegativeInt.optional(),
  totalPlayCount: nonNegativeInt.optional(),
  userPlayCount: nonNegativeInt.optional(),
  discNumber: int.optional(),
  created: isoDate.optional(),
  starred: isoDate.optional(),
  albumId: z.string().optional(),
  artistId: z.string().optional(),
  type: mediaType.optional(),
  mediaType: z.string().optional(),
  bookmarkPosition: nonNegativeInt.optional(),
  originalWidth: int.optional(),
  originalHeight: int.optional(),
  played: isoDate.optional(),
  bpm: nonNegativeInt.optional(),
  comment: z.string().optional(),
  sortName: z.string().optional(),
  musicBrainzId: z.string().optional(),
  isrc: z.array(z.string()).optional(),
  genres: z.array(itemGenre).optional(),
  artists: z.array(artistRef).optional(),
  displayArtist: z.string().optional(),
  albumArtists: z.array(artistRef).optional(),
  displayAlbumArtist: z.string().optional(),
  contributors: z.array(contributor).optional(),
  displayComposer: z.string().optional(),
  moods: z.array(z.string()).optional(),
  replayGain: replayGain.optional(),
  explicitStatus: z.enum(['explicit', 'clean', '']).optional(),
});

/** A song as Canto writes it: a file, never a directory, with the fields clients play by. */
export const song = child.extend({
  isDir: z.literal(false),
  parent: z.string(),
  album: z.string(),
  artist: z.string(),
  coverArt: z.string(),
  contentType: z.string().regex(/^[a-z]+\/[\w.+-]+$/),
  suffix: z.string().min(1),
  duration: nonNegativeInt,
  albumId: z.string(),
  artistId: z.string(),
  created: isoDate,
});

const itemDate = z.object({ year: int.optional(), month: int.optional(), day: int.optional() });

/** AlbumID3. */
export const albumID3 = z.object({
  id: z.string().min(1),
  name: z.string(),
  version: z.string().optional(),
  artist: z.string().optional(),
  artistId: z.string().optional(),
  coverArt: z.string().optional(),
  songCount: nonNegativeInt,
  duration: nonNegativeInt,
  playCount: nonNegativeInt.optional(),
  created: isoDate,
  starred: isoDate.optional(),
  year: int.optional(),
  genre: z.string().optional(),
  played: isoDate.optional(),
  userRating: int.min(1).max(5).optional(),
  recordLabels: z.array(z.object({ name: z.string() })).optional(),
  musicBrainzId: z.string().optional(),
  genres: z.array(itemGenre).optional(),
  artists: z.array(artistRef).optional(),
  displayArtist: z.string().optional(),
  releaseTypes: z.array(z.string()).optional(),
  moods: z.array(z.string()).optional(),
  sortName: z.string().optional(),
  originalReleaseDate: itemDate.optional(),
  releaseDate: itemDate.optional(),
  isCompilation: z.boolean().optional(),
  explicitStatus: z.enum(['explicit', 'clean', '']).optional(),
  discTitles: z.array(z.object({ disc: int, title: z.string() })).optional(),
});

/** AlbumID3WithSongs (getAlbum). */
export const albumID3WithSongs = albumID3.extend({ song: z.array(song).optional() });

/** ArtistID3 as a listing carries it (getArtists, search3, getArtist). */
export const artistID3 = z.object({
  id: z.string().min(1),
  name: z.string(),
  coverArt: z.string().optional(),
  artistImageUrl: z.string().optional(),
  albumCount: nonNegativeInt,
  starred: isoDate.optional(),
  musicBrainzId: z.string().optional(),
  sortName: z.string().optional(),
  roles: z.array(z.string()).optional(),
});

/** ArtistWithAlbumsID3 (getArtist). */
export const artistWithAlbumsID3 = artistID3.extend({ album: z.array(albumID3).optional() });

const indexID3 = z.object({ name: z.string().min(1), artist: z.array(artistID3).optional() });

/** ArtistsID3 (getArtists). */
export const artistsID3 = z.object({
  ignoredArticles: z.string(),
  index: z.array(indexID3).optional(),
});

/** Indexes (getIndexes): the ID3 artists are accepted where Subsonic has `Artist`. */
export const indexes = z.object({
  ignoredArticles: z.string(),
  lastModified: nonNegativeInt,
  shortcut: z.array(artistRef).optional(),
  index: z
    .array(
      z.object({
        name: z.string().min(1),
        artist: z
          .array(
            z.object({
              id: z.string().min(1),
              name: z.string(),
              artistImageUrl: z.string().optional(),
              starred: isoDate.optional(),
              userRating: int.optional(),
              averageRating: z.number().optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  child: z.array(child).optional(),
});

/** Directory (getMusicDirectory). */
export const directory = z.object({
  id: z.string().min(1),
  parent: z.string().optional(),
  name: z.string(),
  starred: isoDate.optional(),
  userRating: int.optional(),
  averageRating: z.number().optional(),
  playCount: nonNegativeInt.optional(),
  child: z.array(child).optional(),
});

export const albumList2 = z.object({ album: z.array(albumID3).optional() });

export const genres = z.object({
  genre: z
    .array(z.object({ value: z.string(), songCount: nonNegativeInt, albumCount: nonNegativeInt }))
    .optional(),
});

export const songs = z.object({ song: z.array(song).optional() });

export const searchResult3 = z.object({
  artist: z.array(artistID3).optional(),
  album: z.array(albumID3).optional(),
  song: z.array(song).optional(),
});

export const starred2 = searchResult3;

/** NowPlayingEntry: a Child and who plays it. */
export const nowPlayingEntry = song.extend({
  username: z.string(),
  minutesAgo: nonNegativeInt,
  playerId: int,
  playerName: z.string().optional(),
});
export const nowPlaying = z.object({ entry: z.array(nowPlayingEntry).optional() });

/** Playlist. */
export const playlist = z.object({
  id: z.string().min(1),
  name: z.string(),
  comment: z.string().optional(),
  owner: z.string().optional(),
  public: z.boolean().optional(),
  songCount: nonNegativeInt,
  duration: nonNegativeInt,
  created: isoDate,
  changed: isoDate,
  coverArt: z.string().optional(),
  allowedUser: z.array(z.string()).optional(),
  readonly: z.boolean().optional(),
  validUntil: isoDate.optional(),
});
export const playlists = z.object({ playlist: z.array(playlist).optional() });
export const playlistWithSongs = playlist.extend({ entry: z.array(song).optional() });

/** PlayQueue (current is a string id in OpenSubsonic). */
export const playQueue = z.object({
  current: z.string().optional(),
  position: nonNegativeInt.optional(),
  username: z.string(),
  changed: isoDate,
  changedBy: z.string(),
  entry: z.array(song).optional(),
});

const podcastStatus = z.enum(['new', 'downloading', 'completed', 'error', 'deleted', 'skipped']);

/** PodcastEpisode: a Child of a channel. */
export const podcastEpisode = child.extend({
  streamId: z.string().optional(),
  channelId: z.string().min(1),
  description: z.string().optional(),
  status: podcastStatus,
  publishDate: isoDate.optional(),
});

/** PodcastChannel. */
export const podcastChannel = z.object({
  id: z.string().min(1),
  url: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  coverArt: z.string().optional(),
  originalImageUrl: z.string().optional(),
  status: podcastStatus,
  errorMessage: z.string().optional(),
  episode: z.array(podcastEpisode).optional(),
});
export const podcasts = z.object({ channel: z.array(podcastChannel).optional() });
export const newestPodcasts = z.object({ episode: z.array(podcastEpisode).optional() });

/** Bookmark: position in milliseconds (as Subsonic servers write it). */
export const bookmark = z.object({
  position: nonNegativeInt,
  username: z.string(),
  comment: z.string().optional(),
  created: isoDate,
  changed: isoDate,
  entry: child,
});
export const bookmarks = z.object({ bookmark: z.array(bookmark).optional() });

/** StructuredLyrics (getLyricsBySongId). */
export const structuredLyrics = z.object({
  lang: z.string().min(1),
  synced: z.boolean(),
  line: z.array(z.object({ value: z.string(), start: nonNegativeInt.optional() })),
  displayArtist: z.string().optional(),
  displayTitle: z.string().optional(),
  offset: int.optional(),
});
export const lyricsList = z.object({ structuredLyrics: z.array(structuredLyrics).optional() });
/** Subsonic's Lyrics (getLyrics): empty when no song matches. */
export const lyrics = z.object({
  artist: z.string().optional(),
  title: z.string().optional(),
  value: z.string().optional(),
});

export const openSubsonicExtensions = z.array(
  z.object({ name: z.string().min(1), versions: z.array(int).min(1) }),
);

export const license = z.object({
  valid: z.boolean(),
  email: z.string().optional(),
  licenseExpires: isoDate.optional(),
  trialExpires: isoDate.optional(),
});

export const musicFolders = z.object({
  musicFolder: z.array(z.object({ id: int, name: z.string().optional() })).optional(),
});

export const user = z.object({
  username: z.string(),
  email: z.string().optional(),
  scrobblingEnabled: z.boolean(),
  maxBitRate: nonNegativeInt.optional(),
  adminRole: z.boolean(),
  settingsRole: z.boolean(),
  downloadRole: z.boolean(),
  uploadRole: z.boolean(),
  playlistRole: z.boolean(),
  coverArtRole: z.boolean(),
  commentRole: z.boolean(),
  podcastRole: z.boolean(),
  streamRole: z.boolean(),
  jukeboxRole: z.boolean(),
  shareRole: z.boolean(),
  videoConversionRole: z.boolean(),
  avatarLastChanged: isoDate.optional(),
  folder: z.array(int).optional(),
});

export const scanStatus = z.object({
  scanning: z.boolean(),
  count: nonNegativeInt.optional(),
  folderCount: nonNegativeInt.optional(),
  lastScan: isoDate.optional(),
});

/** The subsonic-response envelope's own fields. */
const head = {
  version: z.literal('1.16.1'),
  type: z.literal('canto'),
  serverVersion: z.string().regex(/^\d+\.\d+\.\d+/),
  openSubsonic: z.literal(true),
};

/** A success: the envelope and exactly one payload key (or none). */
export function okEnvelope(key?: string, payload?: z.ZodType) {
  return z.strictObject({
    status: z.literal('ok'),
    ...head,
    ...(key && payload ? { [key]: payload } : {}),
  });
}

/** A failure: `error` with a standard code and a message. */
export const errorEnvelope = z.strictObject({
  status: z.literal('failed'),
  ...head,
  error: z.strictObject({
    code: z.union([0, 10, 20, 30, 40, 41, 42, 43, 44, 50, 60, 70].map((c) => z.literal(c))),
    message: z.string(),
  }),
});

/** Methods answering bytes (or an error envelope), not a success envelope. */
export const binaryMethods = new Set(['stream', 'download', 'getCoverArt']);

/** Each envelope-answering method's success shape. */
export const methodShapes: Record<string, z.ZodType> = {
  ping: okEnvelope(),
  getLicense: okEnvelope('license', license),
  getOpenSubsonicExtensions: okEnvelope('openSubsonicExtensions', openSubsonicExtensions),
  getMusicFolders: okEnvelope('musicFolders', musicFolders),
  getUser: okEnvelope('user', user),
  getScanStatus: okEnvelope('scanStatus', scanStatus),
  startScan: okEnvelope('scanStatus', scanStatus),
  getArtists: okEnvelope('artists', artistsID3),
  getIndexes: okEnvelope('indexes', indexes),
  getArtist: okEnvelope('artist', artistWithAlbumsID3),
  getAlbum: okEnvelope('album', albumID3WithSongs),
  getSong: okEnvelope('song', song),
  getMusicDirectory: okEnvelope('directory', directory),
  getAlbumList2: okEnvelope('albumList2', albumList2),
  getGenres: okEnvelope('genres', genres),
  getRandomSongs: okEnvelope('randomSongs', songs),
  getSongsByGenre: okEnvelope('songsByGenre', songs),
  search3: okEnvelope('searchResult3', searchResult3),
  getLyricsBySongId: okEnvelope('lyricsList', lyricsList),
  getLyrics: okEnvelope('lyrics', lyrics),
  star: okEnvelope(),
  unstar: okEnvelope(),
  getStarred2: okEnvelope('starred2', starred2),
  scrobble: okEnvelope(),
  getNowPlaying: okEnvelope('nowPlaying', nowPlaying),
  // No queue saved: an empty success, as Navidrome answers.
  getPlayQueue: z.union([okEnvelope('playQueue', playQueue), okEnvelope()]),
  savePlayQueue: okEnvelope(),
  getPlaylists: okEnvelope('playlists', playlists),
  getPlaylist: okEnvelope('playlist', playlistWithSongs),
  createPlaylist: okEnvelope('playlist', playlistWithSongs),
  updatePlaylist: okEnvelope(),
  deletePlaylist: okEnvelope(),
  getPodcasts: okEnvelope('podcasts', podcasts),
  getNewestPodcasts: okEnvelope('newestPodcasts', newestPodcasts),
  getBookmarks: okEnvelope('bookmarks', bookmarks),
  createBookmark: okEnvelope(),
  deleteBookmark: okEnvelope(),
};

/** Checks a `subsonic-response` against its method's shape (or the error shape). */
export function parseEnvelope(method: string, body: unknown): void {
  const failed = (body as { status?: unknown } | null)?.status === 'failed';
  const shape = failed ? errorEnvelope : methodShapes[method];
  if (!shape) throw new Error(`no shape for ${method}`);
  const result = shape.safeParse(body);
  if (!result.success)
    throw new Error(`${method}: not the OpenSubsonic shape\n${z.prettifyError(result.error)}`);
}
