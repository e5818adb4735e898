import {
  IGNORED_ARTICLES_TEXT,
  indexLetter,
  sortName,
} from '../../../core/subsonic/artist-index.ts';
import { isUuid } from '../../../core/uuid.ts';
import type {
  AlbumOrder,
  BrowseAlbumRow,
  BrowseArtistRow,
  BrowseSongRow,
  SubsonicBrowseRepository,
} from './subsonic-browse.repository.ts';
import {
  intParam,
  missingParameter,
  notFound,
  required,
  SubsonicCode,
  SubsonicError,
  type SubsonicMethods,
  type SubsonicParams,
} from './subsonic-method.ts';

/*
 * Ids as Subsonic clients see them:
 * - a song: its uuid as is (what stream, star and scrobble are given back);
 * - an artist: `ar-<artist's user uuid>`;
 * - an album: `al-<artist's user uuid>-<year>`, one artist's uploads of one UTC year (Canto
 *   has no album table), stable as long as the songs are;
 * - a podcast show: `pc-<uuid>`; an episode: `ep-<uuid>` (its streamId and its id);
 * - a playlist: its uuid (only the playlist methods take playlist ids);
 * - coverArt: the song's, album's, artist's or show's id, which getCoverArt resolves (an
 *   album's and an artist's cover is their newest song's; an episode shows its show's).
 */

export type SubsonicId =
  | { kind: 'song'; songId: string }
  | { kind: 'artist'; artistId: string }
  | { kind: 'album'; artistId: string; year: number }
  | { kind: 'podcast'; podcastId: string }
  | { kind: 'episode'; episodeId: string };

const albumIdPattern = /^al-(.{36})-(\d{4})$/;

/** The id's kind and keys, or null for anything that is not one of ours. */
export function parseSubsonicId(id: string): SubsonicId | null {
  if (isUuid(id)) return { kind: 'song', songId: id.toLowerCase() };
  if (id.startsWith('ar-') && isUuid(id.slice(3)))
    return { kind: 'artist', artistId: id.slice(3).toLowerCase() };
  if (id.startsWith('pc-') && isUuid(id.slice(3)))
    return { kind: 'podcast', podcastId: id.slice(3).toLowerCase() };
  if (id.startsWith('ep-') && isUuid(id.slice(3)))
    return { kind: 'episode', episodeId: id.slice(3).toLowerCase() };
  const album = albumIdPattern.exec(id);
  if (album && isUuid(album[1]!) && Number(album[2]) >= 1)
    return { kind: 'album', artistId: album[1]!.toLowerCase(), year: Number(album[2]) };
  return null;
}

export const artistId = (uuid: string) => `ar-${uuid}`;
export const podcastId = (uuid: string) => `pc-${uuid}`;
export const episodeId = (uuid: string) => `ep-${uuid}`;
export const albumId = (uuid: string, year: number) =>
  `al-${uuid}-${String(year).padStart(4, '0')}`;

/** The contentType of an original by its file's extension (the upload formats, ADR 0014). */
const contentTypes: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  webm: 'audio/webm',
};

function suffixOf(row: BrowseSongRow): string {
  const file = row.file_key ?? row.file_url ?? '';
  const ext = /\.([a-z0-9]{1,5})$/i.exec(file)?.[1]?.toLowerCase();
  return ext ?? 'mp3';
}

const iso = (v: Date | string) => new Date(v).toISOString();
/** A path segment of the virtual path: no separators. */
const segment = (s: string) => s.replace(/[/\\]/g, '_');

/** The album's display name: the artist and the year of the uploads it gathers. */
export function albumName(artist: string | null, year: number): string {
  return `${artist ?? 'Unknown artist'} · ${year}`;
}

/** ReplayGain's reference loudness (−18 LUFS, as EBU R128 scanners write it). */
const REPLAYGAIN_REFERENCE_LUFS = -18;

/** The OpenSubsonic song child. */
export function songChild(row: BrowseSongRow): Record<string, unknown> {
  const year = Number(row.year);
  const artistName = row.artist ?? 'Unknown artist';
  const album = albumName(row.artist, year);
  const suffix = suffixOf(row);
  const child: Record<string, unknown> = {
    id: row.id,
    parent: albumId(row.artist_id, year),
    isDir: false,
    title: row.title,
    album,
    artist: artistName,
    year,
    genre: row.genre ?? undefined,
    coverArt: row.id,
    contentType: contentTypes[suffix] ?? 'application/octet-stream',
    suffix,
    duration: Math.round((row.duration_ms ?? 0) / 1000),
    path: `${segment(artistName)}/${segment(album)}/${segment(row.title)}.${suffix}`,
    playCount: Number(row.play_count),
    created: iso(row.created_at),
    albumId: albumId(row.artist_id, year),
    artistId: artistId(row.artist_id),
    type: 'music',
    isVideo: false,
    mediaType: 'song',
    bpm: 0,
    comment: '',
    sortName: row.title,
    musicBrainzId: '',
    genres: row.genre ? [{ name: row.genre }] : [],
    artists: [{ id: artistId(row.artist_id), name: artistName }],
    displayArtist: artistName,
    albumArtists: [{ id: artistId(row.artist_id), name: artistName }],
    displayAlbumArtist: artistName,
  };
  if (row.genre === null) delete child.genre;
  if (row.starred !== null) child.starred = iso(row.starred);
  if (row.loudness_lufs !== null) {
    const gain: Record<string, number> = {
      trackGain: Math.round((REPLAYGAIN_REFERENCE_LUFS - row.loudness_lufs) * 100) / 100,
    };
    if (row.true_peak_dbtp !== null)
      gain.trackPeak = Math.round(10 ** (row.true_peak_dbtp / 20) * 10000) / 10000;
    child.replayGain = gain;
  }
  return child;
}

/** The OpenSubsonic AlbumID3. */
export function albumEntry(row: BrowseAlbumRow): Record<string, unknown> {
  const year = Number(row.year);
  const artistName = row.artist ?? 'Unknown artist';
  const id = albumId(row.artist_id, year);
  const name = albumName(row.artist, year);
  const album: Record<string, unknown> = {
    id,
    name,
    artist: artistName,
    artistId: artistId(row.artist_id),
    coverArt: id,
    songCount: Number(row.song_count),
    duration: Math.round(Number(row.duration_ms) / 1000),
    playCount: Number(row.play_count),
    created: iso(row.created),
    year,
    musicBrainzId: '',
    genres: row.genre ? [{ name: row.genre }] : [],
    artists: [{ id: artistId(row.artist_id), name: artistName }],
    displayArtist: artistName,
    releaseTypes: ['album'],
    recordLabels: [],
    moods: [],
    sortName: name,
    isCompilation: false,
  };
  if (row.genre) album.genre = row.genre;
  if (row.starred !== null) album.starred = iso(row.starred);
  return album;
}

/** The album as a getMusicDirectory child (a directory). */
function albumDirectory(row: BrowseAlbumRow): Record<string, unknown> {
  const year = Number(row.year);
  const id = albumId(row.artist_id, year);
  const dir: Record<string, unknown> = {
    id,
    parent: artistId(row.artist_id),
    isDir: true,
    title: albumName(row.artist, year),
    album: albumName(row.artist, year),
    artist: row.artist ?? 'Unknown artist',
    year,
    coverArt: id,
    playCount: Number(row.play_count),
    created: iso(row.created),
  };
  if (row.genre) dir.genre = row.genre;
  if (row.starred !== null) dir.starred = iso(row.starred);
  return dir;
}

/** The OpenSubsonic ArtistID3. */
export function artistEntry(row: BrowseArtistRow): Record<string, unknown> {
  const name = row.name ?? 'Unknown artist';
  const artist: Record<string, unknown> = {
    id: artistId(row.artist_id),
    name,
    coverArt: artistId(row.artist_id),
    albumCount: Number(row.album_count),
    musicBrainzId: '',
    sortName: sortName(name),
    roles: ['artist', 'albumartist'],
  };
  if (row.starred !== null) artist.starred = iso(row.starred);
  return artist;
}

type ArtistIndex = { name: string; artist: { id: string; entry: Record<string, unknown> }[] }[];

/**
 * Artists grouped by index letter, letters in order and '#' last, each as its ArtistID3
 * without `starred`. Each name's sort key and letter are computed once (compareBySortName's
 * order), not in every comparison.
 */
function buildIndex(rows: BrowseArtistRow[]): ArtistIndex {
  const keyed = rows.map((row) => {
    const name = row.name ?? '';
    return { row, name, key: sortName(name).toLowerCase(), letter: indexLetter(name) };
  });
  keyed.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const groups = new Map<string, ArtistIndex[number]['artist']>();
  for (const k of keyed) {
    const item = { id: k.row.artist_id, entry: artistEntry({ ...k.row, starred: null }) };
    const group = groups.get(k.letter);
    if (group) group.push(item);
    else groups.set(k.letter, [item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '#' ? 1 : b === '#' ? -1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([name, artist]) => ({ name, artist }));
}

/** The index as one caller sees it: their follows as `starred`. */
function callersIndex(index: ArtistIndex, follows: Map<string, Date | string>) {
  return index.map(({ name, artist }) => ({
    name,
    artist: artist.map(({ id, entry }) => {
      const at = follows.get(id);
      return at === undefined ? entry : { ...entry, starred: iso(at) };
    }),
  }));
}

const MAX_OFFSET = 1_000_000_000;
const albumOrders: readonly AlbumOrder[] = [
  'random',
  'newest',
  'frequent',
  'recent',
  'starred',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'byYear',
  'byGenre',
];

const yearParam = (params: SubsonicParams, name: string) => intParam(params, name, 0, 1, 9999);
const optionalYear = (params: SubsonicParams, name: string) =>
  params.get(name) ? yearParam(params, name) : undefined;

function idOf(params: SubsonicParams): SubsonicId {
  const raw = required(params, 'id');
  const id = parseSubsonicId(raw);
  if (!id) throw notFound('Item');
  return id;
}

/** search3's query: '' or "" (as some clients quote it) or '*' lists everything. */
function searchText(params: SubsonicParams): string | null {
  const raw = params.get('query');
  if (raw === undefined) throw missingParameter('query');
  const text = raw
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .replace(/\*+$/, '')
    .trim();
  return text === '' ? null : text;
}

export type BrowseDeps = {
  /** The subsonic module's browse repository (createSubsonicBrowseRepository(ctx.database.db)). */
  browse: SubsonicBrowseRepository;
};

/**
 * The OpenSubsonic browse and search methods: getArtists, getIndexes, getArtist, getAlbum,
 * getSong, getMusicDirectory, getAlbumList2, getGenres, getRandomSongs, getSongsByGenre,
 * search3. Every answer is the caller's view: their likes and follows as `starred`.
 */
export function createBrowseMethods({ browse }: BrowseDeps): SubsonicMethods {
  const albumOf = async (userId: string, artist: string, year: number) => {
    const [album] = await browse.albums(userId, {
      order: 'alphabeticalByArtist',
      limit: 1,
      offset: 0,
      artistId: artist,
      year,
    });
    return album ?? null;
  };
  const artistOf = async (userId: string, artist: string) => {
    const [row] = await browse.artists(userId, artist);
    return row ?? null;
  };
  const artistAlbums = (userId: string, artist: string) =>
    browse.albums(userId, {
      order: 'byYear',
      limit: 10_000,
      offset: 0,
      artistId: artist,
    });

  // The artist index as anyone sees it, built once per index version (subsonic_index_version,
  // read before the artists, so the index kept is never older than its version).
  let built: { version: number; index: ArtistIndex } | null = null;
  const artistIndex = async (userId: string) => {
    const [version, follows] = await Promise.all([browse.indexVersion(), browse.follows(userId)]);
    let index = built && built.version === version ? built.index : null;
    if (!index) {
      index = buildIndex(await browse.artistIndex());
      if (version !== null) built = { version, index };
    }
    return callersIndex(index, follows);
  };

  return {
    async getArtists(caller) {
      const index = await artistIndex(caller.userId);
      return { artists: { ignoredArticles: IGNORED_ARTICLES_TEXT, index } };
    },

    async getIndexes(caller) {
      const [index, last] = await Promise.all([artistIndex(caller.userId), browse.lastModified()]);
      return {
        indexes: {
          lastModified: last?.getTime() ?? 0,
          ignoredArticles: IGNORED_ARTICLES_TEXT,
          index,
        },
      };
    },

    async getArtist(caller, params) {
      const id = idOf(params);
      if (id.kind !== 'artist') throw notFound('Artist');
      const artist = await artistOf(caller.userId, id.artistId);
      if (!artist) throw notFound('Artist');
      const albums = await artistAlbums(caller.userId, id.artistId);
      return { artist: { ...artistEntry(artist), album: albums.map(albumEntry) } };
    },

    async getAlbum(caller, params) {
      const id = idOf(params);
      if (id.kind !== 'album') throw notFound('Album');
      const album = await albumOf(caller.userId, id.artistId, id.year);
      if (!album) throw notFound('Album');
      const songs = await browse.albumSongs(caller.userId, id.artistId, id.year);
      return { album: { ...albumEntry(album), song: songs.map(songChild) } };
    },

    async getSong(caller, params) {
      const id = idOf(params);
      if (id.kind !== 'song') throw notFound('Song');
      const song = await browse.song(caller.userId, id.songId);
      if (!song) throw notFound('Song');
      return { song: songChild(song) };
    },

    async getMusicDirectory(caller, params) {
      const id = idOf(params);
      if (id.kind === 'artist') {
        const artist = await artistOf(caller.userId, id.artistId);
        if (!artist) throw notFound('Directory');
        const albums = await artistAlbums(caller.userId, id.artistId);
        const dir: Record<string, unknown> = {
          id: artistId(id.artistId),
          name: artist.name ?? 'Unknown artist',
          playCount: albums.reduce((n, a) => n + Number(a.play_count), 0),
          child: albums.map(albumDirectory),
        };
        if (artist.starred !== null) dir.starred = iso(artist.starred);
        return { directory: dir };
      }
      if (id.kind === 'album') {
        const album = await albumOf(caller.userId, id.artistId, id.year);
        if (!album) throw notFound('Directory');
        const songs = await browse.albumSongs(caller.userId, id.artistId, id.year);
        const dir: Record<string, unknown> = {
          id: albumId(id.artistId, id.year),
          parent: artistId(id.artistId),
          name: albumName(album.artist, id.year),
          playCount: Number(album.play_count),
          child: songs.map(songChild),
        };
        if (album.starred !== null) dir.starred = iso(album.starred);
        return { directory: dir };
      }
      throw notFound('Directory');
    },

    async getAlbumList2(caller, params) {
      const type = required(params, 'type');
      if (!(albumOrders as readonly string[]).includes(type))
        throw new SubsonicError(SubsonicCode.generic, `Unknown album list type: ${type}`);
      const order = type as AlbumOrder;
      const limit = intParam(params, 'size', 10, 1, 500);
      const offset = intParam(params, 'offset', 0, 0, MAX_OFFSET);
      const query: Parameters<SubsonicBrowseRepository['albums']>[1] = { order, limit, offset };
      if (order === 'byYear') {
        required(params, 'fromYear');
        required(params, 'toYear');
        query.fromYear = yearParam(params, 'fromYear');
        query.toYear = yearParam(params, 'toYear');
      }
      if (order === 'byGenre') query.genre = required(params, 'genre');
      const rows = await browse.albums(caller.userId, query);
      return { albumList2: { album: rows.map(albumEntry) } };
    },

    async getGenres() {
      const rows = await browse.genres();
      return {
        genres: {
          genre: rows.map((g) => ({
            value: g.value,
            songCount: Number(g.song_count),
            albumCount: Number(g.album_count),
          })),
        },
      };
    },

    async getRandomSongs(caller, params) {
      const limit = intParam(params, 'size', 10, 1, 500);
      const genre = params.get('genre') || undefined;
      const fromYear = optionalYear(params, 'fromYear');
      const toYear = optionalYear(params, 'toYear');
      const rows = await browse.randomSongs(caller.userId, limit, { genre, fromYear, toYear });
      return { randomSongs: { song: rows.map(songChild) } };
    },

    async getSongsByGenre(caller, params) {
      const genre = required(params, 'genre');
      const limit = intParam(params, 'count', 10, 1, 500);
      const offset = intParam(params, 'offset', 0, 0, MAX_OFFSET);
      const rows = await browse.songsByGenre(caller.userId, genre, limit, offset);
      return { songsByGenre: { song: rows.map(songChild) } };
    },

    async search3(caller, params) {
      const text = searchText(params);
      const artistCount = intParam(params, 'artistCount', 20, 0, 500);
      const artistOffset = intParam(params, 'artistOffset', 0, 0, MAX_OFFSET);
      const albumCount = intParam(params, 'albumCount', 20, 0, 500);
      const albumOffset = intParam(params, 'albumOffset', 0, 0, MAX_OFFSET);
      const songCount = intParam(params, 'songCount', 20, 0, 500);
      const songOffset = intParam(params, 'songOffset', 0, 0, MAX_OFFSET);
      const [artists, albums, songs] = await Promise.all([
        browse.searchArtists(caller.userId, text, artistCount, artistOffset),
        albumCount === 0
          ? Promise.resolve([])
          : browse.albums(caller.userId, {
              order: 'alphabeticalByArtist',
              limit: albumCount,
              offset: albumOffset,
              ...(text === null ? {} : { text }),
            }),
        browse.searchSongs(caller.userId, text, songCount, songOffset),
      ]);
      return {
        searchResult3: {
          artist: artists.map(artistEntry),
          album: albums.map(albumEntry),
          song: songs.map(songChild),
        },
      };
    },
  };
}
