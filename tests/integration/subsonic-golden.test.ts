// Golden answers of every OpenSubsonic method Canto serves (docs/decisions/0034): each case is
// called over /rest in JSON and in XML; the JSON must have the OpenSubsonic shape
// (tests/helpers/subsonic-shapes.ts), the XML must be well-formed and say the same as the JSON,
// and both must equal the committed files in tests/golden/subsonic (the same files for PGlite
// and PostgreSQL, so sort orders must not depend on the engine). `UPDATE_GOLDEN=1 npx vitest
// run tests/integration/subsonic-golden.test.ts` rewrites them; a case without its files fails.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bucket } from '../../src/server/storage/storage.ts';
import { binaryMethods, methodShapes, parseEnvelope } from '../helpers/subsonic-shapes.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { signUp } from './auth-helpers.ts';

const GOLDEN_DIR = path.resolve(import.meta.dirname, '../golden/subsonic');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** Golden files written by this run: the second database compares against the first's. */
const writtenThisRun = new Set<string>();

// Fixed ids: the only uuids a golden file may hold as they are.
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ARTIST = { aurora: id('a0000000', 1), owls: id('a0000000', 2), echoes: id('a0000000', 3) };
const SONG = {
  morning: id('50000000', 1),
  nasty: id('50000000', 2),
  evening: id('50000000', 3),
  bright: id('50000000', 4),
  olmeer: id('50000000', 5),
};
const PLAYLIST = id('b0000000', 1);
/** A private playlist with no songs: the second of the two deletes (JSON, then XML). */
const SPARE_PLAYLIST = id('b0000000', 2);
const PODCAST = id('c0000000', 1);
const EPISODE = { first: id('e0000000', 1), second: id('e0000000', 2) };
const FIXED_IDS = new Set<string>([
  ...Object.values(ARTIST),
  ...Object.values(SONG),
  PLAYLIST,
  SPARE_PLAYLIST,
  PODCAST,
  ...Object.values(EPISODE),
]);

/** The title that must survive XML: markup, a CDATA end, quotes and control characters. */
const NASTY_TITLE = `Fish & Chips <Live> ]]> "quoted" 'single' \u0001\u0008\u001f end`;
const LISTENER = 'listener@golden.test';

type Query = Record<string, string | string[]>;
type Case = {
  name: string;
  method: string;
  query?: Query;
  /** The XML call's query, for a change the JSON call made and that cannot be made twice. */
  xml?: Query;
  headers?: Record<string, string>;
};

const al = (artist: string, year: number) => `al-${artist}-${year}`;
const ar = (artist: string) => `ar-${artist}`;

/** The calls, in order (later cases may see earlier ones' writes). */
const CASES: Case[] = [
  { name: 'ping', method: 'ping' },
  { name: 'getLicense', method: 'getLicense' },
  { name: 'getOpenSubsonicExtensions', method: 'getOpenSubsonicExtensions' },
  { name: 'getMusicFolders', method: 'getMusicFolders' },
  { name: 'getUser', method: 'getUser', query: { username: LISTENER } },
  { name: 'getUser-other', method: 'getUser', query: { username: 'someone@golden.test' } },
  { name: 'getScanStatus', method: 'getScanStatus' },
  { name: 'startScan', method: 'startScan' },
  { name: 'getArtists', method: 'getArtists' },
  { name: 'getIndexes', method: 'getIndexes' },
  { name: 'getArtist', method: 'getArtist', query: { id: ar(ARTIST.aurora) } },
  { name: 'getArtist-unknown', method: 'getArtist', query: { id: ar(id('a0000000', 99)) } },
  { name: 'getAlbum', method: 'getAlbum', query: { id: al(ARTIST.aurora, 2021) } },
  { name: 'getSong', method: 'getSong', query: { id: SONG.nasty } },
  { name: 'getSong-missing-id', method: 'getSong' },
  { name: 'getMusicDirectory-artist', method: 'getMusicDirectory', query: { id: ar(ARTIST.owls) } },
  {
    name: 'getMusicDirectory-album',
    method: 'getMusicDirectory',
    query: { id: al(ARTIST.aurora, 2021) },
  },
  { name: 'getAlbumList2-newest', method: 'getAlbumList2', query: { type: 'newest' } },
  { name: 'getAlbumList2-frequent', method: 'getAlbumList2', query: { type: 'frequent' } },
  { name: 'getAlbumList2-recent', method: 'getAlbumList2', query: { type: 'recent' } },
  { name: 'getAlbumList2-starred', method: 'getAlbumList2', query: { type: 'starred' } },
  {
    name: 'getAlbumList2-alphabeticalByName',
    method: 'getAlbumList2',
    query: { type: 'alphabeticalByName', size: '2', offset: '1' },
  },
  {
    name: 'getAlbumList2-byYear',
    method: 'getAlbumList2',
    query: { type: 'byYear', fromYear: '2022', toYear: '2020' },
  },
  {
    name: 'getAlbumList2-byGenre',
    method: 'getAlbumList2',
    query: { type: 'byGenre', genre: 'ambient' },
  },
  { name: 'getAlbumList2-bad-type', method: 'getAlbumList2', query: { type: 'bogus' } },
  { name: 'getGenres', method: 'getGenres' },
  // One Jazz song: random order cannot show.
  { name: 'getRandomSongs', method: 'getRandomSongs', query: { genre: 'Jazz' } },
  { name: 'getSongsByGenre', method: 'getSongsByGenre', query: { genre: 'rock', count: '5' } },
  { name: 'search3-all', method: 'search3', query: { query: '' } },
  { name: 'search3-text', method: 'search3', query: { query: 'aurora' } },
  { name: 'noSuchMethod', method: 'noSuchMethod' },

  // Pending methods, as their helpers' branches will answer them.
  {
    name: 'stream-range',
    method: 'stream',
    query: { id: SONG.morning },
    headers: { range: 'bytes=0-99' },
  },
  { name: 'stream-episode', method: 'stream', query: { id: `ep-${EPISODE.first}` } },
  { name: 'download', method: 'download', query: { id: SONG.morning } },
  { name: 'getCoverArt', method: 'getCoverArt', query: { id: SONG.morning } },
  { name: 'getLyricsBySongId', method: 'getLyricsBySongId', query: { id: SONG.morning } },
  { name: 'getLyricsBySongId-synced', method: 'getLyricsBySongId', query: { id: SONG.bright } },
  {
    name: 'getLyrics',
    method: 'getLyrics',
    query: { artist: 'the brass owls', title: 'bright lines' },
  },
  { name: 'getLyrics-none', method: 'getLyrics', query: { artist: 'Aurora Vale' } },
  { name: 'getStarred2', method: 'getStarred2' },
  {
    name: 'star',
    method: 'star',
    query: { id: SONG.morning, albumId: al(ARTIST.owls, 2020), artistId: ar(ARTIST.echoes) },
  },
  { name: 'getStarred2-after-star', method: 'getStarred2' },
  { name: 'unstar', method: 'unstar', query: { id: SONG.morning, artistId: ar(ARTIST.echoes) } },
  { name: 'getStarred2-after-unstar', method: 'getStarred2' },
  {
    name: 'scrobble-submission',
    method: 'scrobble',
    // An hour ago: a phone's offline play (scrobbles older than 14 days are refused).
    query: { id: SONG.evening, submission: 'true', time: String(Date.now() - 3_600_000) },
  },
  {
    name: 'scrobble-now-playing',
    method: 'scrobble',
    query: { id: SONG.bright, submission: 'false' },
  },
  { name: 'getNowPlaying', method: 'getNowPlaying' },
  { name: 'getPlayQueue-empty', method: 'getPlayQueue' },
  {
    name: 'savePlayQueue',
    method: 'savePlayQueue',
    query: { id: [SONG.morning, SONG.bright], current: SONG.bright, position: '12345' },
  },
  { name: 'getPlayQueue', method: 'getPlayQueue' },
  { name: 'getPlaylists', method: 'getPlaylists' },
  { name: 'getPlaylist', method: 'getPlaylist', query: { id: PLAYLIST } },
  {
    name: 'createPlaylist',
    method: 'createPlaylist',
    query: { name: 'Made by an app', songId: [SONG.evening, SONG.olmeer] },
  },
  {
    name: 'updatePlaylist',
    method: 'updatePlaylist',
    query: {
      playlistId: PLAYLIST,
      name: 'Road trip (longer)',
      comment: 'For the whole drive',
      songIdToAdd: SONG.olmeer,
      songIndexToRemove: '0',
    },
    xml: { playlistId: PLAYLIST, songIdToAdd: SONG.evening },
  },
  { name: 'getPlaylist-after-update', method: 'getPlaylist', query: { id: PLAYLIST } },
  {
    name: 'deletePlaylist',
    method: 'deletePlaylist',
    query: { id: PLAYLIST },
    xml: { id: SPARE_PLAYLIST },
  },
  { name: 'getPlaylists-after-delete', method: 'getPlaylists' },
  { name: 'getPodcasts', method: 'getPodcasts' },
  {
    name: 'getPodcasts-one',
    method: 'getPodcasts',
    query: { id: `pc-${PODCAST}`, includeEpisodes: 'true' },
  },
  { name: 'getNewestPodcasts', method: 'getNewestPodcasts', query: { count: '5' } },
  { name: 'getBookmarks', method: 'getBookmarks' },
  {
    name: 'createBookmark',
    method: 'createBookmark',
    query: { id: `ep-${EPISODE.first}`, position: '61000', comment: 'Halfway' },
  },
  { name: 'getBookmarks-after-create', method: 'getBookmarks' },
  {
    name: 'deleteBookmark',
    method: 'deleteBookmark',
    query: { id: `ep-${EPISODE.first}` },
    xml: { id: `ep-${EPISODE.second}` },
  },
  { name: 'getBookmarks-after-delete', method: 'getBookmarks' },
];

// ---- Normalizing: only what a run cannot fix (server version, generated ids, "now") ----

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)/g;

/** The text with volatile values replaced; `since` is the run's start. */
function normalize(text: string, since: number): string {
  const generated = new Map<string, string>();
  return text
    .replace(/("serverVersion":|serverVersion=)"[^"]*"/g, '$1"{serverVersion}"')
    .replace(/"minutesAgo":\d+/g, '"minutesAgo":"{minutesAgo}"')
    .replace(/minutesAgo="\d+"/g, 'minutesAgo="{minutesAgo}"')
    .replace(UUID, (u) => {
      const lower = u.toLowerCase();
      if (FIXED_IDS.has(lower)) return lower;
      if (!generated.has(lower)) generated.set(lower, `{uuid-${generated.size + 1}}`);
      return generated.get(lower)!;
    })
    .replace(ISO, (t) => (Date.parse(t) >= since ? '{now}' : t));
}

// ---- XML ⇄ JSON: the XML must carry what the JSON does ----

// Characters XML 1.0 cannot hold (the envelope drops them).
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: 'value',
  ignoreDeclaration: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
  // Every element may repeat: arrays throughout, but for the root.
  isArray: (_name, jpath, _leaf, isAttribute) => !isAttribute && jpath !== 'subsonic-response',
});

type Canon = string | Canon[] | { [key: string]: Canon };

/**
 * The JSON as the XML writer lays it out: scalars become text (attributes), an object an
 * element (a one-item list), a list repeated elements, `value` the element's text; empty
 * lists vanish and an element with nothing in it is ''.
 */
function xmlShapeOf(value: unknown): Canon {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value).replace(ILLEGAL_XML, '');
  if (Array.isArray(value)) return value.map(element);
  return element(value);
}
function element(value: unknown): Canon {
  if (value === null || typeof value !== 'object') return xmlShapeOf(value);
  const out: Record<string, Canon> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) {
      if (v.length) out[key] = v.map(element);
    } else if (typeof v === 'object') out[key] = [element(v)];
    else out[key] = xmlShapeOf(v);
  }
  const keys = Object.keys(out);
  if (keys.length === 0) return '';
  if (keys.length === 1 && keys[0] === 'value' && typeof out.value === 'string') return out.value;
  return out;
}

/** The XML document's root element as the parser reads it. */
function parseXml(xml: string): Canon {
  return (xmlParser.parse(xml) as Record<string, Canon>)['subsonic-response']!;
}

// ---- The app and its data ----

type Answer = { status: number; type: string; body: Buffer };

async function putFile(ctx: TestContext, bucket: Bucket, key: string, data: Buffer, type: string) {
  await ctx.storage.put(bucket, key, Readable.from([data]), { contentType: type, maxBytes: 1e7 });
}
const audioBytes = (n: number, seed: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
};

async function seed(ctx: TestContext): Promise<void> {
  const db = ctx.db.database.db;
  for (const [name, userId] of Object.entries(ARTIST))
    await db.execute(
      sql`insert into users (id, email, password_hash, created_at)
          values (${userId}, ${`${name}@golden.test`}, 'x', '2018-01-01T00:00:00Z')`,
    );
  await db.execute(
    sql`insert into users (email, password_hash) values ('someone@golden.test', 'x')`,
  );
  const songs: Array<[string, string, string, string, string | null, string, number, string]> = [
    // id, artist id, artist, title, genre, created, plays, file extension
    [
      SONG.morning,
      ARTIST.aurora,
      'Aurora Vale',
      'Morning Light',
      'Ambient',
      '2021-03-04T05:06:07Z',
      12,
      'wav',
    ],
    [
      SONG.nasty,
      ARTIST.aurora,
      'Aurora Vale',
      NASTY_TITLE,
      'Rock',
      '2021-06-01T00:00:00Z',
      3,
      'flac',
    ],
    [
      SONG.evening,
      ARTIST.aurora,
      'Aurora Vale',
      'Evening Tide',
      'Ambient',
      '2022-01-02T03:04:05Z',
      0,
      'mp3',
    ],
    [
      SONG.bright,
      ARTIST.owls,
      'The Brass Owls',
      'Bright Lines',
      'Jazz',
      '2020-07-08T09:10:11Z',
      30,
      'flac',
    ],
    [SONG.olmeer, ARTIST.echoes, '42 Echoes', 'Ölmeer', 'Rock', '2019-11-12T13:14:15Z', 7, 'm4a'],
  ];
  for (const [songId, artistId, artist, title, genre, created, plays, ext] of songs) {
    const lufs = songId === SONG.morning ? -14 : null;
    const peak = songId === SONG.morning ? -1.5 : null;
    await db.execute(
      sql`insert into songs (id, artist_id, artist, title, genre, file_url, file_key,
            cover_art_url, cover_art_key, duration_ms, play_count, created_at, loudness_lufs,
            true_peak_dbtp)
          values (${songId}, ${artistId}, ${artist}, ${title}, ${genre},
            ${`/media/music/${songId}.${ext}`}, ${`music/${songId}.${ext}`},
            ${`/media/cover-art/${songId}.webp`}, ${`cover-art/${songId}.webp`},
            ${200_500 + plays * 1000}, ${plays}, ${created}::timestamptz, ${lufs}, ${peak})`,
    );
  }
  // Synced lyrics with an offset and a repeated line, and markup-like text XML must escape.
  await db.execute(
    sql`insert into song_lyrics (song_id, text, synced) values (${SONG.bright},
        ${'[ar:The Brass Owls]\n[offset:-250]\n[00:01.00]Brass & <3 "horns"\n[00:12.50][01:10.00]Bright lines\n[00:30.75]Fade'},
        true)`,
  );
  await putFile(ctx, 'music', `${SONG.morning}.wav`, audioBytes(4096, 1), 'audio/wav');
  const cover = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 80, b: 40 } },
  })
    .webp()
    .toBuffer();
  await putFile(ctx, 'cover-art', `${SONG.morning}.webp`, cover, 'image/webp');
}

/** The listener's likes, follows, plays, playlist, and a show with episodes and progress. */
async function seedListener(ctx: TestContext, listenerId: string): Promise<void> {
  const db = ctx.db.database.db;
  await db.execute(
    sql`insert into liked_songs (user_id, song_id, created_at) values
        (${listenerId}, ${SONG.nasty}, '2024-01-02T03:04:05Z'),
        (${listenerId}, ${SONG.bright}, '2024-02-03T04:05:06Z')`,
  );
  await db.execute(
    sql`insert into user_follows (follower_id, following_id, created_at)
        values (${listenerId}, ${ARTIST.owls}, '2024-03-04T05:06:07Z')`,
  );
  await db.execute(
    sql`insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed) values
        (${listenerId}, ${SONG.evening}, '2024-04-05T06:07:08Z', 90000, true),
        (${listenerId}, ${SONG.olmeer}, '2024-04-06T06:07:08Z', 90000, true)`,
  );
  await db.execute(
    sql`insert into playlists (id, user_id, title, description, is_public, created_at, updated_at)
        values (${PLAYLIST}, ${listenerId}, 'Road trip', 'For the drive', true,
          '2024-05-01T10:00:00Z', '2024-05-02T10:00:00Z'),
          (${SPARE_PLAYLIST}, ${listenerId}, 'Spare', null, false,
          '2024-05-03T10:00:00Z', '2024-05-03T10:00:00Z')`,
  );
  await db.execute(
    sql`insert into playlist_tracks (playlist_id, song_id, position, added_at) values
        (${PLAYLIST}, ${SONG.morning}, 0, '2024-05-01T10:00:00Z'),
        (${PLAYLIST}, ${SONG.nasty}, 1, '2024-05-01T10:01:00Z'),
        (${PLAYLIST}, ${SONG.bright}, 2, '2024-05-02T10:00:00Z')`,
  );
  await db.execute(
    sql`insert into podcasts (id, creator_id, title, description, created_at, updated_at)
        values (${PODCAST}, ${ARTIST.aurora}, 'Golden Hour Talks', 'Conversations at dusk',
          '2023-01-01T00:00:00Z', '2023-01-01T00:00:00Z')`,
  );
  const episodes: Array<[string, string, number, string]> = [
    [EPISODE.first, 'Pilot: tuning up', 1, '2023-02-01T08:00:00Z'],
    [EPISODE.second, 'Second wind', 2, '2023-03-01T08:00:00Z'],
  ];
  for (const [episodeId, title, n, published] of episodes) {
    await db.execute(
      sql`insert into podcast_episodes (id, podcast_id, title, description, audio_url, audio_key,
            duration_ms, episode_number, published_at, audio_bytes, audio_mime)
          values (${episodeId}, ${PODCAST}, ${title}, ${`Episode ${n}`},
            ${`/media/podcasts/${episodeId}.wav`}, ${`podcasts/${episodeId}.wav`},
            ${1_800_000 * n}, ${n}, ${published}::timestamptz, 2048, 'audio/wav')`,
    );
    await putFile(ctx, 'podcasts', `${episodeId}.wav`, audioBytes(2048, n + 1), 'audio/wav');
  }
  await db.execute(
    sql`insert into episode_progress (user_id, episode_id, position_ms, completed, updated_at)
        values (${listenerId}, ${EPISODE.second}, 30000, false, '2024-06-01T12:00:00Z')`,
  );
}

const runStart = Date.now() - 60_000;

function goldenFile(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (UPDATE && !writtenThisRun.has(name)) {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, actual);
    writtenThisRun.add(name);
    return;
  }
  if (!fs.existsSync(file))
    throw new Error(
      `No golden file tests/golden/subsonic/${name}: run UPDATE_GOLDEN=1 npx vitest run tests/integration/subsonic-golden.test.ts and review it`,
    );
  expect(actual, `golden ${name}`).toBe(fs.readFileSync(file, 'utf8'));
}

describe('the OpenSubsonic shapes and the XML comparison', () => {
  const head = {
    status: 'ok',
    version: '1.16.1',
    type: 'canto',
    serverVersion: '1.2.3',
    openSubsonic: true,
  };
  const songEntry = {
    id: 's1',
    parent: 'al-1',
    isDir: false,
    title: 'T',
    album: 'A',
    artist: 'B',
    coverArt: 's1',
    contentType: 'audio/mpeg',
    suffix: 'mp3',
    duration: 3,
    albumId: 'al-1',
    artistId: 'ar-1',
    created: '2020-01-01T00:00:00.000Z',
  };
  const refused = (method: string, body: unknown) =>
    expect(() => parseEnvelope(method, body)).toThrow(/not the OpenSubsonic shape/);

  it('accepts a right answer and refuses a wrong type, a missing field or a stray key', () => {
    parseEnvelope('getSong', { ...head, song: songEntry });
    refused('getSong', { ...head, song: { ...songEntry, duration: '3' } });
    refused('getSong', { ...head, song: { ...songEntry, isDir: undefined } });
    refused('getSong', { ...head, song: { ...songEntry, created: 'yesterday' } });
    refused('getSong', { ...head, version: '1.15.0', song: songEntry });
    refused('getSong', { ...head, songs: songEntry });
    refused('ping', { ...head, openSubsonic: 'true' });
    refused('getPlayQueue', { ...head, playQueue: { username: 'u', changed: songEntry.created } });
    parseEnvelope('ping', { ...head, status: 'failed', error: { code: 70, message: 'x' } });
    refused('ping', { ...head, status: 'failed', error: { code: 71, message: 'x' } });
  });

  it('reads XML as the writer lays out JSON, and sees a difference', () => {
    const json = { a: 1, b: [{ c: 'x&<' }, { c: 'y' }], d: { value: 'text', e: true }, f: [] };
    const xml =
      '<?xml version="1.0"?><subsonic-response a="1"><b c="x&amp;&lt;"/><b c="y"/>' +
      '<d e="true">text</d></subsonic-response>';
    expect(parseXml(xml)).toEqual(xmlShapeOf(json));
    expect(parseXml(xml.replace('c="y"', 'c="z"'))).not.toEqual(xmlShapeOf(json));
    expect(parseXml(xml.replace('<b c="y"/>', ''))).not.toEqual(xmlShapeOf(json));
  });
});

describe.each(dbKinds)('OpenSubsonic golden answers on %s', (kind) => {
  // No fold of plays into play counts here: a scrobble case would change later answers' playCount
  // whenever the fold happened to run between them.
  const ctx = useTestApp(kind, { PLAY_COUNT_FOLD_SECONDS: '0' });
  let password = '';

  beforeAll(async () => {
    await seed(ctx);
    const { res } = await signUp(ctx.app, { email: LISTENER, display_name: 'Golden Listener' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ user: { id: string }; access_token: string }>();
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/subsonic/passwords',
      headers: { authorization: `Bearer ${body.access_token}` },
      payload: { name: 'Golden' },
    });
    expect(made.statusCode, made.body).toBe(201);
    password = made.json<{ password: string }>().password;
    await seedListener(ctx, body.user.id);
  });

  async function call(c: Case, f: 'json' | 'xml'): Promise<Answer> {
    const qs = new URLSearchParams({ u: LISTENER, p: password, v: '1.16.1', c: 'golden', f });
    for (const [key, value] of Object.entries((f === 'xml' ? c.xml : undefined) ?? c.query ?? {}))
      for (const v of [value].flat()) qs.append(key, v);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/rest/${c.method}.view?${qs}`,
      headers: c.headers,
      remoteAddress: '127.0.0.1',
    });
    return {
      status: res.statusCode,
      type: String(res.headers['content-type'] ?? ''),
      body: res.rawPayload,
    };
  }

  const envelopeOf = (a: Answer) =>
    (JSON.parse(a.body.toString('utf8')) as { 'subsonic-response': Record<string, unknown> })[
      'subsonic-response'
    ];

  it('covers every method the shapes know', () => {
    const methods = new Set(CASES.map((c) => c.method));
    for (const m of [...Object.keys(methodShapes), ...binaryMethods]) expect(methods).toContain(m);
  });

  for (const c of CASES)
    it(`${c.name}: the OpenSubsonic shape, the same in JSON and XML, as the golden files`, async () => {
      const [json, xml] = [await call(c, 'json'), await call(c, 'xml')];
      const isEnvelope = json.type.startsWith('application/json');
      if (binaryMethods.has(c.method) && !isEnvelope) {
        // Bytes: the same in both formats; the golden file records their head and digest.
        expect(xml.body.equals(json.body)).toBe(true);
        const summary = {
          status: json.status,
          contentType: json.type,
          bytes: json.body.length,
          sha256: crypto.createHash('sha256').update(json.body).digest('hex'),
        };
        goldenFile(`${c.name}.json`, `${JSON.stringify(summary, null, 2)}\n`);
        return;
      }
      expect(json.status).toBe(200);
      expect(json.type).toMatch(/^application\/json/);
      expect(xml.type).toMatch(/^application\/xml/);
      const env = envelopeOf(json);
      parseEnvelope(c.method, env);

      const xmlText = xml.body.toString('utf8');
      expect(XMLValidator.validate(xmlText)).toBe(true);
      // Compared normalized: a create made twice (JSON, then XML) has two ids and times.
      const normalizedJson = JSON.parse(normalize(json.body.toString('utf8'), runStart));
      expect(parseXml(normalize(xmlText, runStart))).toEqual(
        xmlShapeOf({
          xmlns: 'http://subsonic.org/restapi',
          ...(normalizedJson as { 'subsonic-response': Record<string, unknown> })[
            'subsonic-response'
          ],
        }),
      );

      goldenFile(`${c.name}.json`, `${JSON.stringify(normalizedJson, null, 2)}\n`);
      goldenFile(`${c.name}.xml`, `${normalize(xmlText, runStart).replace(/></g, '>\n<')}\n`);
    });
});
