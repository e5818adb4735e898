import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBrowseMethods } from '../../src/server/modules/subsonic/subsonic-browse.ts';
import { createSubsonicBrowseRepository } from '../../src/server/modules/subsonic/subsonic-browse.repository.ts';
import {
  SubsonicError,
  type SubsonicCaller,
  type SubsonicMethods,
  type SubsonicParams,
} from '../../src/server/modules/subsonic/subsonic-method.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { rows } from './songs-helpers.ts';

type Json = Record<string, unknown>;

const params = (query: Record<string, string> = {}): SubsonicParams => {
  const search = new URLSearchParams(query);
  return { get: (n) => search.get(n) ?? undefined, all: (n) => search.getAll(n) };
};

async function account(ctx: TestContext, name: string): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into users (email, password_hash) values (${`${name}@subsonic.test`}, 'x') returning id`,
  );
  return row!.id;
}

async function song(
  ctx: TestContext,
  artistId: string,
  artist: string,
  title: string,
  genre: string | null,
  created: string,
  extra: { plays?: number; lufs?: number; peak?: number; ext?: string } = {},
): Promise<string> {
  const key = `${title.replace(/\W+/g, '-')}.${extra.ext ?? 'flac'}`;
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (artist_id, artist, title, genre, file_url, file_key, duration_ms,
          play_count, created_at, loudness_lufs, true_peak_dbtp, cover_art_key)
        values (${artistId}, ${artist}, ${title}, ${genre}, ${`/media/music/${key}`},
          ${`music/${key}`}, 183400, ${extra.plays ?? 0}, ${created}::timestamptz,
          ${extra.lufs ?? null}, ${extra.peak ?? null}, 'cover-art/x.webp')
        returning id`,
  );
  return row!.id;
}

const BULK = 1200;

describe.each(dbKinds)('subsonic browse on %s', (kind) => {
  const ctx = useTestApp(kind);
  let methods: SubsonicMethods;
  let me: SubsonicCaller;
  let other: SubsonicCaller;
  const a: Record<string, string> = {};
  const s: Record<string, string> = {};
  let external = '';

  const call = async (method: string, query: Record<string, string> = {}, who = me) => {
    const result = await methods[method]!(who, params(query));
    return result as Json;
  };
  const fails = async (method: string, query: Record<string, string>, code: number) => {
    const error = await methods[method]!(me, params(query)).catch((e: unknown) => e);
    expect(error, `${method} ${JSON.stringify(query)}`).toBeInstanceOf(SubsonicError);
    expect((error as SubsonicError).code).toBe(code);
  };

  beforeAll(async () => {
    methods = createBrowseMethods({
      browse: createSubsonicBrowseRepository(ctx.db.database.db),
    });
    me = { userId: await account(ctx, 'me'), username: 'me', roles: ['listener'] };
    other = { userId: await account(ctx, 'other'), username: 'other', roles: ['listener'] };
    // The artists' accounts (no profile: the songs keep the names written below).
    for (const k of ['beatles', 'abba', 'tribe', 'horse', 'pac', 'emile', 'bulk'])
      a[k] = await account(ctx, k);
    s.help = await song(ctx, a.beatles!, 'The Beatles', 'Help', 'Rock', '2019-03-01T10:00:00Z', {
      plays: 50,
      lufs: -9,
      peak: -1,
    });
    s.yesterday = await song(
      ctx,
      a.beatles!,
      'The Beatles',
      'Yesterday',
      'Rock',
      '2019-07-01T10:00:00Z',
      { plays: 40, ext: 'mp3' },
    );
    s.late = await song(ctx, a.beatles!, 'The Beatles', 'Late', 'Pop', '2021-01-01T10:00:00Z');
    s.waterloo = await song(ctx, a.abba!, 'Abba', 'Waterloo', 'Pop', '2020-05-01T10:00:00Z', {
      plays: 500,
    });
    s.sos = await song(ctx, a.abba!, 'Abba', 'SOS', 'pop', '2020-06-01T10:00:00Z');
    s.can = await song(
      ctx,
      a.tribe!,
      'A Tribe',
      'Can I Kick It',
      'Hip Hop',
      '2021-02-01T10:00:00Z',
    );
    s.changes = await song(ctx, a.pac!, '2Pac', 'Changes', 'Hip Hop', '2018-02-01T10:00:00Z');
    s.gnossienne = await song(ctx, a.emile!, 'Émile', 'Gnossienne', 'Jazz', '2022-02-01T10:00:00Z');
    s.horse = await song(ctx, a.horse!, 'an Horse', 'Camp Out', 'Rock', '2020-09-01T10:00:00Z');
    // The bulk artist's songs, for paging: one year, one genre.
    await ctx.db.database.db.execute(
      sql`insert into songs (artist_id, artist, title, genre, file_url, file_key, duration_ms, created_at)
          select ${a.bulk}, 'Zed Bulk', 'Bulk ' || n, 'Ambient', '/media/music/b' || n || '.mp3',
            'music/b' || n || '.mp3', 60000, '2015-01-01T00:00:00Z'::timestamptz + n * interval '1 minute'
          from generate_series(1, ${BULK}) n`,
    );
    // An external catalogue track: never a Subsonic client's.
    const [ext] = await rows<{ id: string }>(
      ctx,
      sql`insert into songs (artist, title, genre, preview_url, source, external_id, created_at)
          values ('The Beatles', 'Help (iTunes)', 'Rock', 'https://example.test/p.m4a', 'itunes',
                  'x1', '2019-05-01T00:00:00Z') returning id`,
    );
    external = ext!.id;
    // My likes and follows; another listener's, which I must never see as mine.
    await ctx.db.database.db.execute(
      sql`insert into liked_songs (user_id, song_id, created_at) values
          (${me.userId}, ${s.yesterday}, '2024-01-01T00:00:00Z'),
          (${me.userId}, ${s.gnossienne}, '2024-02-01T00:00:00Z'),
          (${other.userId}, ${s.waterloo}, '2024-01-01T00:00:00Z')`,
    );
    await ctx.db.database.db.execute(
      sql`insert into user_follows (follower_id, following_id) values
          (${me.userId}, ${a.abba}), (${other.userId}, ${a.beatles})`,
    );
    await ctx.db.database.db.execute(
      sql`insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed) values
          (${me.userId}, ${s.changes}, now() - interval '1 hour', 90000, true),
          (${me.userId}, ${s.can}, now() - interval '2 hours', 90000, true),
          (${other.userId}, ${s.horse}, now(), 90000, true)`,
    );
  });

  const beatles2019 = () => `al-${a.beatles}-2019`;

  it('getArtists indexes by first letter, ignoring The/An/A, non-letters under #', async () => {
    const body = await call('getArtists');
    const artists = body.artists as { ignoredArticles: string; index: Json[] };
    expect(artists.ignoredArticles).toBe('The An A');
    const index = artists.index.map((i) => [i.name, (i.artist as Json[]).map((x) => x.name)]);
    expect(index).toEqual([
      ['A', ['Abba']],
      ['B', ['The Beatles']],
      ['E', ['Émile']],
      ['H', ['an Horse']],
      ['T', ['A Tribe']],
      ['Z', ['Zed Bulk']],
      ['#', ['2Pac']],
    ]);
    const abba = (artists.index[0]!.artist as Json[])[0]!;
    expect(abba).toEqual({
      id: `ar-${a.abba}`,
      name: 'Abba',
      coverArt: `ar-${a.abba}`,
      albumCount: 1,
      musicBrainzId: '',
      sortName: 'Abba',
      roles: ['artist', 'albumartist'],
      starred: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const beatles = (artists.index[1]!.artist as Json[])[0]!;
    // Another listener follows them, not me.
    expect(beatles.starred).toBeUndefined();
    expect(beatles.albumCount).toBe(2);
    expect(beatles.sortName).toBe('Beatles');
  });

  it('getIndexes: the same index with lastModified', async () => {
    const body = (await call('getIndexes')).indexes as Json;
    expect(body.ignoredArticles).toBe('The An A');
    expect(body.lastModified).toBe(Date.parse('2022-02-01T10:00:00Z'));
    expect((body.index as Json[]).map((i) => i.name)).toEqual(['A', 'B', 'E', 'H', 'T', 'Z', '#']);
  });

  it('getArtist: the artist and its albums, one per upload year, stable ids', async () => {
    const first = (await call('getArtist', { id: `ar-${a.beatles}` })).artist as Json;
    const again = (await call('getArtist', { id: `ar-${a.beatles}` })).artist as Json;
    expect(again).toEqual(first);
    expect(first.name).toBe('The Beatles');
    const albums = first.album as Json[];
    expect(albums.map((x) => x.id)).toEqual([beatles2019(), `al-${a.beatles}-2021`]);
    expect(albums[0]).toEqual({
      id: beatles2019(),
      name: 'The Beatles · 2019',
      artist: 'The Beatles',
      artistId: `ar-${a.beatles}`,
      coverArt: beatles2019(),
      songCount: 2,
      duration: 367,
      playCount: 90,
      created: '2019-03-01T10:00:00.000Z',
      year: 2019,
      genre: 'Rock',
      genres: [{ name: 'Rock' }],
      musicBrainzId: '',
      artists: [{ id: `ar-${a.beatles}`, name: 'The Beatles' }],
      displayArtist: 'The Beatles',
      releaseTypes: ['album'],
      recordLabels: [],
      moods: [],
      sortName: 'The Beatles · 2019',
      isCompilation: false,
      // I liked Yesterday.
      starred: '2024-01-01T00:00:00.000Z',
    });
  });

  it('getAlbum: the album and its songs in the OpenSubsonic child shape', async () => {
    const album = (await call('getAlbum', { id: beatles2019() })).album as Json;
    const songs = album.song as Json[];
    expect(songs.map((x) => x.title)).toEqual(['Help', 'Yesterday']);
    expect(songs[0]).toEqual({
      id: s.help,
      parent: beatles2019(),
      isDir: false,
      title: 'Help',
      album: 'The Beatles · 2019',
      artist: 'The Beatles',
      year: 2019,
      genre: 'Rock',
      coverArt: s.help,
      contentType: 'audio/flac',
      suffix: 'flac',
      duration: 183,
      path: 'The Beatles/The Beatles · 2019/Help.flac',
      playCount: 50,
      created: '2019-03-01T10:00:00.000Z',
      albumId: beatles2019(),
      artistId: `ar-${a.beatles}`,
      type: 'music',
      isVideo: false,
      mediaType: 'song',
      bpm: 0,
      comment: '',
      sortName: 'Help',
      musicBrainzId: '',
      genres: [{ name: 'Rock' }],
      artists: [{ id: `ar-${a.beatles}`, name: 'The Beatles' }],
      displayArtist: 'The Beatles',
      albumArtists: [{ id: `ar-${a.beatles}`, name: 'The Beatles' }],
      displayAlbumArtist: 'The Beatles',
      replayGain: { trackGain: -9, trackPeak: 0.8913 },
    });
    expect(songs[1]).toMatchObject({
      id: s.yesterday,
      contentType: 'audio/mpeg',
      suffix: 'mp3',
      starred: '2024-01-01T00:00:00.000Z',
    });
    expect(songs[1]!.replayGain).toBeUndefined();
    // Another listener sees the same album without my like.
    const theirs = (await call('getAlbum', { id: beatles2019() }, other)).album as Json;
    expect(theirs.starred).toBeUndefined();
    expect((theirs.song as Json[]).every((x) => x.starred === undefined)).toBe(true);
  });

  it('getSong, and unknown, malformed and foreign ids are 70 not found', async () => {
    const body = (await call('getSong', { id: s.waterloo! })).song as Json;
    expect(body.title).toBe('Waterloo');
    expect(body.starred).toBeUndefined();
    expect((await call('getSong', { id: s.waterloo! }, other)).song).toMatchObject({
      starred: '2024-01-01T00:00:00.000Z',
    });
    for (const id of [
      external,
      '00000000-0000-4000-8000-000000000000',
      '../../etc/passwd',
      'ar-../../etc/passwd',
      `al-${a.beatles}-19x9`,
      `al-${a.beatles}-1999`,
      `ar-${me.userId}`,
      "1' or '1'='1",
    ]) {
      await fails('getSong', { id }, 70);
      await fails('getAlbum', { id }, 70);
      await fails('getArtist', { id }, 70);
      await fails('getMusicDirectory', { id }, 70);
    }
    await fails('getSong', {}, 10);
    await fails('getAlbum', { id: s.help! }, 70);
  });

  it('getMusicDirectory: artist → albums as directories, album → songs', async () => {
    const artist = (await call('getMusicDirectory', { id: `ar-${a.abba}` })).directory as Json;
    expect(artist).toMatchObject({ id: `ar-${a.abba}`, name: 'Abba', playCount: 500 });
    expect(artist.starred).toEqual(expect.any(String));
    expect(artist.child).toEqual([
      {
        id: `al-${a.abba}-2020`,
        parent: `ar-${a.abba}`,
        isDir: true,
        title: 'Abba · 2020',
        album: 'Abba · 2020',
        artist: 'Abba',
        year: 2020,
        coverArt: `al-${a.abba}-2020`,
        playCount: 500,
        created: '2020-05-01T10:00:00.000Z',
        genre: 'Pop',
      },
    ]);
    const album = (await call('getMusicDirectory', { id: `al-${a.abba}-2020` })).directory as Json;
    expect(album).toMatchObject({ id: `al-${a.abba}-2020`, parent: `ar-${a.abba}` });
    expect((album.child as Json[]).map((x) => [x.title, x.isDir])).toEqual([
      ['Waterloo', false],
      ['SOS', false],
    ]);
  });

  const list = async (query: Record<string, string>, who = me) =>
    ((await call('getAlbumList2', query, who)).albumList2 as { album: Json[] }).album.map(
      (x) => x.name,
    );

  it('getAlbumList2: every type', async () => {
    const all = [
      'Zed Bulk · 2015',
      '2Pac · 2018',
      'The Beatles · 2019',
      'Abba · 2020',
      'an Horse · 2020',
      'The Beatles · 2021',
      'A Tribe · 2021',
      'Émile · 2022',
    ];
    expect(await list({ type: 'newest', size: '3' })).toEqual([
      'Émile · 2022',
      'A Tribe · 2021',
      'The Beatles · 2021',
    ]);
    expect((await list({ type: 'frequent', size: '2' })).slice(0, 2)).toEqual([
      'Abba · 2020',
      'The Beatles · 2019',
    ]);
    expect(await list({ type: 'recent' })).toEqual(['2Pac · 2018', 'A Tribe · 2021']);
    expect(await list({ type: 'recent' }, other)).toEqual(['an Horse · 2020']);
    expect(await list({ type: 'starred' })).toEqual(['Émile · 2022', 'The Beatles · 2019']);
    expect(await list({ type: 'starred' }, other)).toEqual(['Abba · 2020']);
    const alphabetical = [
      '2Pac · 2018',
      'A Tribe · 2021',
      'Abba · 2020',
      'an Horse · 2020',
      'The Beatles · 2019',
      'The Beatles · 2021',
      'Zed Bulk · 2015',
      'Émile · 2022',
    ];
    expect(await list({ type: 'alphabeticalByArtist', size: '500' })).toEqual(alphabetical);
    expect(await list({ type: 'alphabeticalByName', size: '500' })).toEqual(alphabetical);
    expect(await list({ type: 'alphabeticalByName', size: '3', offset: '6' })).toEqual(
      alphabetical.slice(6),
    );
    const random = await list({ type: 'random', size: '500' });
    expect([...random].sort()).toEqual([...all].sort());
    expect(await list({ type: 'byYear', fromYear: '2019', toYear: '2020' })).toEqual([
      'The Beatles · 2019',
      'Abba · 2020',
      'an Horse · 2020',
    ]);
    expect(await list({ type: 'byYear', fromYear: '2021', toYear: '2018' })).toEqual([
      'A Tribe · 2021',
      'The Beatles · 2021',
      'Abba · 2020',
      'an Horse · 2020',
      'The Beatles · 2019',
      '2Pac · 2018',
    ]);
    expect(await list({ type: 'byGenre', genre: 'pop' })).toEqual([
      'Abba · 2020',
      'The Beatles · 2021',
    ]);
    expect(await list({ type: 'byGenre', genre: 'Hip Hop' })).toEqual([
      '2Pac · 2018',
      'A Tribe · 2021',
    ]);
  });

  it('getAlbumList2: bad input is an error, not a 5xx', async () => {
    await fails('getAlbumList2', {}, 10);
    await fails('getAlbumList2', { type: 'bogus' }, 0);
    await fails('getAlbumList2', { type: 'newest', size: '100000' }, 0);
    await fails('getAlbumList2', { type: 'newest', size: '0' }, 0);
    await fails('getAlbumList2', { type: 'newest', offset: '-1' }, 0);
    await fails('getAlbumList2', { type: 'newest', offset: '1e3' }, 0);
    await fails('getAlbumList2', { type: 'byYear', fromYear: '2019' }, 10);
    await fails('getAlbumList2', { type: 'byYear', fromYear: 'x', toYear: '2020' }, 0);
    await fails('getAlbumList2', { type: 'byGenre' }, 10);
  });

  it('getGenres: value, songCount, albumCount; case-folded', async () => {
    const genres = ((await call('getGenres')).genres as { genre: Json[] }).genre;
    expect(genres).toEqual([
      { value: 'Ambient', songCount: BULK, albumCount: 1 },
      { value: 'Hip Hop', songCount: 2, albumCount: 2 },
      { value: 'Jazz', songCount: 1, albumCount: 1 },
      { value: 'Pop', songCount: 3, albumCount: 2 },
      { value: 'Rock', songCount: 3, albumCount: 2 },
    ]);
  });

  it('getRandomSongs and getSongsByGenre', async () => {
    const random = ((await call('getRandomSongs', { size: '500' })).randomSongs as { song: Json[] })
      .song;
    expect(random).toHaveLength(500);
    expect(random.some((x) => x.id === external)).toBe(false);
    const pop = (
      (await call('getRandomSongs', { genre: 'POP', fromYear: '2020', toYear: '2020' }))
        .randomSongs as { song: Json[] }
    ).song;
    expect(pop.map((x) => x.title).sort()).toEqual(['SOS', 'Waterloo']);
    expect(((await call('getRandomSongs')).randomSongs as { song: Json[] }).song).toHaveLength(10);
    const byGenre = async (q: Record<string, string>) =>
      ((await call('getSongsByGenre', q)).songsByGenre as { song: Json[] }).song.map(
        (x) => x.title,
      );
    expect(await byGenre({ genre: 'rock' })).toEqual(['Camp Out', 'Yesterday', 'Help']);
    expect(await byGenre({ genre: 'Rock', count: '1', offset: '1' })).toEqual(['Yesterday']);
    expect(await byGenre({ genre: 'Ambient', count: '500', offset: '1100' })).toHaveLength(100);
    await fails('getSongsByGenre', {}, 10);
    await fails('getSongsByGenre', { genre: 'Rock', count: '100000' }, 0);
    await fails('getSongsByGenre', { genre: 'Rock', offset: '-1' }, 0);
    await fails('getRandomSongs', { size: '100000' }, 0);
  });

  const search = async (q: Record<string, string>) =>
    (await call('search3', q)).searchResult3 as { artist: Json[]; album: Json[]; song: Json[] };

  it('search3: an empty query pages through everything, at any offset', async () => {
    const total = BULK + 9;
    const seen: string[] = [];
    for (const offset of [0, 500, 1000]) {
      const page = await search({
        query: '',
        songCount: '500',
        songOffset: String(offset),
        artistCount: '0',
        albumCount: '0',
      });
      expect(page.artist).toEqual([]);
      expect(page.album).toEqual([]);
      expect(page.song).toHaveLength(Math.min(500, total - offset));
      seen.push(...page.song.map((x) => x.id as string));
    }
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort());
    expect(seen).not.toContain(external);
    const past = await search({ query: '""', songCount: '500', songOffset: String(total) });
    expect(past.song).toEqual([]);
    // Defaults: 20 of each.
    const first = await search({ query: '""' });
    expect(first.song).toHaveLength(20);
    expect(first.artist.map((x) => x.name)).toEqual([
      '2Pac',
      'A Tribe',
      'Abba',
      'an Horse',
      'The Beatles',
      'Zed Bulk',
      'Émile',
    ]);
    expect(first.album).toHaveLength(8);
    expect((await search({ query: '', artistCount: '2', artistOffset: '5' })).artist).toHaveLength(
      2,
    );
    expect((await search({ query: '', albumCount: '3', albumOffset: '6' })).album).toHaveLength(2);
  });

  it('search3: a text finds artists, albums and songs containing it', async () => {
    const beatles = await search({ query: 'beatles' });
    expect(beatles.artist.map((x) => x.name)).toEqual(['The Beatles']);
    expect(beatles.album.map((x) => x.name)).toEqual(['The Beatles · 2019', 'The Beatles · 2021']);
    expect(beatles.song.map((x) => x.title)).toEqual(['Help', 'Late', 'Yesterday']);
    const year = await search({ query: '2020' });
    expect(year.album.map((x) => x.name)).toEqual(['Abba · 2020', 'an Horse · 2020']);
    expect((await search({ query: 'water' })).song.map((x) => x.title)).toEqual(['Waterloo']);
    // LIKE's wildcards are taken literally.
    const wild = await search({ query: '%' });
    expect([wild.artist, wild.album, wild.song]).toEqual([[], [], []]);
  });

  it('search3: bad input is an error', async () => {
    await fails('search3', {}, 10);
    await fails('search3', { query: '', songCount: '100000' }, 0);
    await fails('search3', { query: '', songOffset: '-1' }, 0);
    await fails('search3', { query: '', artistOffset: 'abc' }, 0);
    await fails('search3', { query: '', albumCount: '501' }, 0);
  });
});
