import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBrowseMethods } from '../../src/server/modules/subsonic/subsonic-browse.ts';
import { createSubsonicBrowseRepository } from '../../src/server/modules/subsonic/subsonic-browse.repository.ts';
import type {
  SubsonicCaller,
  SubsonicMethods,
  SubsonicParams,
} from '../../src/server/modules/subsonic/subsonic-method.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { rows } from './songs-helpers.ts';

// The rollups behind the Subsonic lists (migration 0034): subsonic_albums, subsonic_artists
// and subsonic_song_buckets are kept by triggers on songs, and must always equal what grouping
// the songs gives; search3's bucketed paging must equal a plain OFFSET; random lists are
// distinct songs and albums of the own catalogue.

type Json = Record<string, unknown>;

const params = (query: Record<string, string> = {}): SubsonicParams => {
  const search = new URLSearchParams(query);
  return { get: (n) => search.get(n) ?? undefined, all: (n) => search.getAll(n) };
};

async function account(ctx: TestContext, name: string): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into users (email, password_hash) values (${`${name}@rollups.test`}, 'x') returning id`,
  );
  return row!.id;
}

/** The albums and artists' album counts as grouping the own songs gives them. */
async function expectRollupsRight(ctx: TestContext) {
  const stored = await rows<Json>(
    ctx,
    sql`select artist_id, year, artist, song_count, duration_ms::bigint::text as duration_ms,
          play_count::bigint::text as play_count, created, latest, genre, genres
        from subsonic_albums order by artist_id, year`,
  );
  const grouped = await rows<Json>(
    ctx,
    sql`select artist_id, extract(year from created_at at time zone 'UTC')::int as year,
          max(artist) as artist, count(*)::int as song_count,
          coalesce(sum(duration_ms), 0)::bigint::text as duration_ms,
          coalesce(sum(play_count), 0)::bigint::text as play_count,
          min(created_at) as created, max(created_at) as latest,
          mode() within group (order by genre collate "C") as genre,
          coalesce(array_agg(distinct lower(genre)) filter (where genre is not null), '{}') as genres
        from songs where source is null and artist_id is not null
        group by 1, 2 order by 1, 2`,
  );
  expect(stored).toEqual(grouped);
  // Each album under each of its genres, with the name the name order sorts by.
  const byGenre = await rows<Json>(
    ctx,
    sql`select genre, sort_name, year, artist_id from subsonic_album_genres
        order by genre, sort_name collate "C", year, artist_id`,
  );
  const unnested = await rows<Json>(
    ctx,
    sql`select * from (
          select distinct g.genre, lower(a.artist) as sort_name, a.year, a.artist_id
          from (select artist_id, extract(year from created_at at time zone 'UTC')::int as year,
                  max(artist) as artist,
                  array_agg(distinct lower(genre)) filter (where genre is not null) as genres
                from songs where source is null and artist_id is not null group by 1, 2) a
          cross join lateral unnest(a.genres) as g(genre)) x
        order by genre, sort_name collate "C", year, artist_id`,
  );
  expect(byGenre).toEqual(unnested);
  const artists = await rows<Json>(
    ctx,
    sql`select artist_id, album_count from subsonic_artists order by artist_id`,
  );
  const counted = await rows<Json>(
    ctx,
    sql`select artist_id, count(*)::int as album_count from (
          select distinct artist_id, extract(year from created_at at time zone 'UTC')::int
          from songs where source is null and artist_id is not null) a
        group by 1 order by 1`,
  );
  expect(artists).toEqual(counted);
  const buckets = await rows<{ wrong: number }>(
    ctx,
    sql`select count(*)::int as wrong from (
          select prefix, songs from subsonic_song_buckets where songs <> 0
          except
          select subsonic_song_bucket(id), count(*)::int from songs where source is null group by 1
        ) x`,
  );
  expect(buckets[0]!.wrong).toBe(0);
  const [total] = await rows<{ a: number; b: number }>(
    ctx,
    sql`select (select coalesce(sum(songs), 0)::int from subsonic_song_buckets) as a,
          (select count(*)::int from songs where source is null) as b`,
  );
  expect(total!.a).toBe(total!.b);
}

describe.each(dbKinds)('subsonic rollups on %s', (kind) => {
  const ctx = useTestApp(kind);
  let methods: SubsonicMethods;
  let me: SubsonicCaller;
  const artists: string[] = [];
  const exec = (q: ReturnType<typeof sql>) => ctx.db.database.db.execute(q);
  const call = async (method: string, query: Record<string, string> = {}) =>
    (await methods[method]!(me, params(query))) as Json;

  beforeAll(async () => {
    methods = createBrowseMethods({ browse: createSubsonicBrowseRepository(ctx.db.database.db) });
    me = { userId: await account(ctx, 'me'), username: 'me', roles: ['listener'] };
    for (let i = 0; i < 6; i++) artists.push(await account(ctx, `artist${i}`));
    // 3000 own songs over 6 artists and 4 years, and external ones that never count.
    await exec(sql`
      insert into songs (artist_id, artist, title, genre, file_url, duration_ms, play_count, created_at)
      select (${sql.raw(`array[${artists.map((a) => `'${a}'::uuid`).join(',')}]`)})[1 + n % 6],
        'Artist ' || (n % 6), 'Song ' || n,
        case n % 5 when 0 then null when 1 then 'Rock' when 2 then 'rock' else 'Jazz' end,
        '/media/music/s' || n || '.mp3', 1000 * n, n % 7,
        '2020-01-01T00:00:00Z'::timestamptz + (n % 4) * interval '1 year' + n * interval '1 minute'
      from generate_series(1, 3000) n`);
    await exec(sql`
      insert into songs (artist, title, preview_url, source, external_id)
      select 'Ext', 'Ext ' || n, 'https://example.test/p.m4a', 'itunes', 'x' || n
      from generate_series(1, 50) n`);
  });

  it('are built from the songs already there and kept by every kind of write', async () => {
    await expectRollupsRight(ctx);
    // An upload into a new album, and into an existing one.
    await exec(sql`
      insert into songs (artist_id, artist, title, genre, file_url, duration_ms, created_at)
      values (${artists[0]}, 'Artist 0', 'New year', 'Pop', '/media/music/n.mp3', 5000, '2026-03-01T00:00:00Z'),
             (${artists[1]}, 'Artist 1', 'More', 'Pop', '/media/music/m.mp3', 7000, '2021-06-01T00:00:00Z')`);
    await expectRollupsRight(ctx);
    // Edits: a genre, a date moving a song to another year, a song moving to another artist.
    await exec(
      sql`update songs set genre = 'Blues' where title in ('Song 10', 'Song 11', 'Song 12')`,
    );
    await exec(sql`update songs set created_at = '2031-01-01T00:00:00Z' where title = 'Song 13'`);
    await exec(
      sql`update songs set artist_id = ${artists[5]}, artist = 'Artist 5' where title = 'Song 14'`,
    );
    await expectRollupsRight(ctx);
    // The listening fold (play counts only), and play counts with an edit in one statement.
    await exec(sql`update songs set play_count = play_count + 3 where title like 'Song 2%'`);
    await exec(sql`
      update songs set play_count = play_count + 1,
        genre = case when title = 'Song 31' then 'Funk' else genre end
      where title in ('Song 31', 'Song 37', 'Song 43')`);
    await expectRollupsRight(ctx);
    // Deletes: some songs, a whole album, then an artist's account (cascade).
    await exec(sql`delete from songs where title in ('Song 100', 'Song 200', 'New year')`);
    await exec(
      sql`delete from songs where artist_id = ${artists[2]} and created_at < '2021-01-01T00:00:00Z'`,
    );
    await expectRollupsRight(ctx);
    await exec(sql`delete from users where id = ${artists[3]}`);
    await expectRollupsRight(ctx);
    // A song leaving the own catalogue and one coming in.
    await exec(
      sql`update songs set source = 'itunes', external_id = 'moved' where title = 'Song 50'`,
    );
    await exec(
      sql`update songs set source = null, external_id = null, artist_id = ${artists[4]} where title = 'Ext 1'`,
    );
    await expectRollupsRight(ctx);
    const [gone] = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from subsonic_albums where artist_id = ${artists[3]}`,
    );
    expect(gone!.n).toBe(0);
  });

  it('answer the lists as grouping the songs does', async () => {
    const album = async (type: string, extra: Record<string, string> = {}) =>
      (
        (await call('getAlbumList2', { type, size: '500', ...extra })).albumList2 as {
          album: Json[];
        }
      ).album;
    const [count] = await rows<{ n: number }>(
      ctx,
      sql`select count(distinct (artist_id, extract(year from created_at at time zone 'UTC')))::int as n
          from songs where source is null and artist_id is not null`,
    );
    const newest = await album('newest');
    expect(newest).toHaveLength(count!.n);
    const latest = await rows<{ id: string }>(
      ctx,
      sql`select 'al-' || artist_id || '-' || lpad(y::text, 4, '0') as id from (
            select artist_id, extract(year from created_at at time zone 'UTC')::int as y,
              max(created_at) as at
            from songs where source is null and artist_id is not null group by 1, 2) a
          order by at desc, artist_id, y`,
    );
    expect(newest.map((a) => a.id)).toEqual(latest.map((r) => r.id));
    const blues = await album('byGenre', { genre: 'BLUES' });
    expect(blues.length).toBeGreaterThan(0);
    for (const a of blues) {
      const songs = ((await call('getAlbum', { id: a.id as string })).album as { song: Json[] })
        .song;
      expect(songs.some((x) => x.genre === 'Blues')).toBe(true);
      expect(a.songCount).toBe(songs.length);
    }
    const index = (await call('getArtists')).artists as { index: { artist: Json[] }[] };
    const listed = index.index.flatMap((i) => i.artist);
    const counts = await rows<{ id: string; n: number }>(
      ctx,
      sql`select 'ar-' || artist_id as id, count(distinct extract(year from created_at at time zone 'UTC'))::int as n
          from songs where source is null and artist_id is not null group by artist_id`,
    );
    expect(Object.fromEntries(listed.map((a) => [a.id, a.albumCount]))).toEqual(
      Object.fromEntries(counts.map((c) => [c.id, c.n])),
    );
  });

  it('getArtists keeps its built index only until the catalogue changes; follows are per call', async () => {
    const names = async () =>
      ((await call('getArtists')).artists as { index: { artist: Json[] }[] }).index
        .flatMap((i) => i.artist)
        .map((a) => `${a.name as string}:${a.albumCount as number}${a.starred ? '*' : ''}`);
    const before = await names();
    const newcomer = await account(ctx, 'newcomer');
    await exec(sql`
      insert into songs (artist_id, artist, title, file_url, created_at)
      values (${newcomer}, 'Aardvark', 'First', '/media/music/f.mp3', '2024-05-01T00:00:00Z')`);
    expect(await names()).toEqual(['Aardvark:1', ...before]);
    await exec(sql`
      insert into songs (artist_id, artist, title, file_url, created_at)
      values (${newcomer}, 'Aardvark', 'Second', '/media/music/g.mp3', '2025-05-01T00:00:00Z')`);
    expect((await names())[0]).toBe('Aardvark:2');
    await exec(sql`update songs set artist = 'Zebra' where artist_id = ${newcomer}`);
    expect((await names()).at(-1)).toBe('Zebra:2');
    await exec(
      sql`insert into user_follows (follower_id, following_id) values (${me.userId}, ${newcomer})`,
    );
    expect((await names()).at(-1)).toBe('Zebra:2*');
    await exec(sql`delete from songs where artist_id = ${newcomer}`);
    expect(await names()).toEqual(before);
  });

  it('search3 pages at any offset exactly as OFFSET over the ids does', async () => {
    const expected = async (count: number, offset: number) =>
      (
        await rows<{ id: string }>(
          ctx,
          sql`select id from songs where source is null order by id limit ${count} offset ${offset}`,
        )
      ).map((r) => r.id);
    const page = async (count: number, offset: number) =>
      (
        (
          await call('search3', {
            query: '',
            songCount: String(count),
            songOffset: String(offset),
            artistCount: '0',
            albumCount: '0',
          })
        ).searchResult3 as { song: Json[] }
      ).song.map((x) => x.id);
    const [total] = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from songs where source is null`,
    );
    const n = total!.n;
    expect(n).toBeGreaterThan(2000);
    for (const offset of [0, 1, 17, 499, 500, 1234, 2000, n - 500, n - 7, n - 1, n, n + 10])
      for (const count of [1, 7, 500])
        expect(await page(count, offset), `${count} at ${offset}`).toEqual(
          await expected(count, offset),
        );
    // The same after writes that move the buckets.
    await exec(sql`delete from songs where title like 'Song 1%' and source is null`);
    await exec(sql`
      insert into songs (artist_id, artist, title, file_url, created_at)
      select ${artists[0]}, 'Artist 0', 'Late ' || n, '/media/music/l.mp3', '2024-01-01T00:00:00Z'
      from generate_series(1, 300) n`);
    await expectRollupsRight(ctx);
    for (const offset of [0, 333, 1500, 2100])
      expect(await page(500, offset)).toEqual(await expected(500, offset));
  });

  it('search3 with a text gives the same pages whether its matches are few or many', async () => {
    await exec(sql`
      insert into songs (artist_id, artist, title, file_url, created_at)
      select ${artists[1]}, 'Artist 1', 'Common ' || n, '/media/music/c.mp3', '2022-01-01T00:00:00Z'
      from generate_series(1, 5200) n`);
    const expected = async (text: string, count: number, offset: number) =>
      (
        await rows<{ id: string }>(
          ctx,
          sql`select id from songs where source is null and (title ilike ${`%${text}%`} or artist ilike ${`%${text}%`})
              order by lower(title) collate "C", id limit ${count} offset ${offset}`,
        )
      ).map((r) => r.id);
    const page = async (text: string, count: number, offset: number) =>
      (
        (
          await call('search3', {
            query: text,
            songCount: String(count),
            songOffset: String(offset),
            artistCount: '0',
            albumCount: '0',
          })
        ).searchResult3 as { song: Json[] }
      ).song.map((x) => x.id);
    // Many (5200 > 5000, walked in title order), few (sorted), and an artist's name.
    for (const [text, offset] of [
      ['common', 0],
      ['common', 4900],
      ['song 12', 0],
      ['song 12', 5],
      ['artist 5', 0],
    ] as const)
      expect(await page(text, 50, offset), `${text} at ${offset}`).toEqual(
        await expected(text, 50, offset),
      );
  });

  it('random songs and albums are distinct, of the own catalogue, and differ between calls', async () => {
    const own = new Set(
      (await rows<{ id: string }>(ctx, sql`select id::text from songs where source is null`)).map(
        (r) => r.id,
      ),
    );
    const random = async (query: Record<string, string>) =>
      ((await call('getRandomSongs', query)).randomSongs as { song: Json[] }).song;
    for (const size of ['10', '50', '500']) {
      const songs = await random({ size });
      expect(songs).toHaveLength(Number(size));
      expect(new Set(songs.map((x) => x.id)).size).toBe(songs.length);
      for (const x of songs) expect(own.has(x.id as string)).toBe(true);
    }
    const a = (await random({ size: '50' })).map((x) => x.id).sort();
    const b = (await random({ size: '50' })).map((x) => x.id).sort();
    expect(a).not.toEqual(b);
    const jazz = await random({ size: '100', genre: 'jazz', fromYear: '2021', toYear: '2022' });
    expect(jazz).toHaveLength(100);
    expect(new Set(jazz.map((x) => x.id)).size).toBe(100);
    for (const x of jazz) {
      expect(x.genre).toBe('Jazz');
      expect([2021, 2022]).toContain(x.year);
    }
    const albums = (
      (await call('getAlbumList2', { type: 'random', size: '10' })).albumList2 as {
        album: Json[];
      }
    ).album;
    expect(albums).toHaveLength(10);
    expect(new Set(albums.map((x) => x.id)).size).toBe(10);
  });
});
