import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import {
  catalogueTrack,
  makePng,
  makeUser,
  makeWav,
  multipart,
  rows,
  startFakeCatalogue,
  storedFiles,
  type FakeCatalogue,
  type TestUser,
  uploadSong,
} from './songs-helpers.ts';

describe.each(dbKinds)('catalogue: home, browse, search, edit on %s', (kind) => {
  let fake: FakeCatalogue;
  // Filled before useTestApp's beforeAll reads it: the fake's port is only known once it listens.
  const env: Record<string, string> = {};
  beforeAll(async () => {
    fake = await startFakeCatalogue();
    env.CATALOGUE_URL = fake.url;
    // The fake listens on 127.0.0.1, which the outbound guard refuses unless told otherwise.
    env.CATALOGUE_ALLOW_PRIVATE = '1';
  });
  afterAll(() => fake?.close());
  const ctx = useTestApp(kind, env);
  let listener: TestUser;

  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener');
  });

  const get = (url: string, user: TestUser = listener) =>
    ctx.app.inject({ method: 'GET', url, headers: user.headers });
  const search = (params: Record<string, string>) =>
    get(`/api/search?${new URLSearchParams(params)}`);
  const titles = (songs: Array<{ title: string }>) => songs.map((s) => s.title);

  async function seed(s: {
    title: string;
    genre?: string | null;
    plays?: number;
    ageMin?: number;
  }) {
    const [row] = await rows<{ id: string }>(
      ctx,
      sql`insert into songs (title, genre, play_count, created_at, file_url, duration_ms)
          values (${s.title}, ${s.genre ?? null}, ${s.plays ?? 0},
                  now() - (${s.ageMin ?? 0}::int * interval '1 minute'), '/media/music/seed.wav', 180000)
          returning id`,
    );
    return row!.id;
  }

  describe('with no songs at all', () => {
    it('gives empty sections when the catalogue is down (and does not remember the failure)', async () => {
      fake.mode = 'error';
      const res = await get('/api/songs/home');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ recent: [], popular: [], external: false });
    });

    it("fills home from the external catalogue's 'popular' tracks", async () => {
      fake.mode = 'ok';
      fake.tracks = Array.from({ length: 15 }, (_, i) => catalogueTrack(i + 1, `Hit ${i + 1}`));
      fake.requests.length = 0;
      const res = await get('/api/songs/home');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.external).toBe(true);
      expect(titles(body.popular)).toEqual(['Hit 1', 'Hit 2', 'Hit 3', 'Hit 4', 'Hit 5', 'Hit 6']);
      expect(titles(body.recent)).toEqual([
        'Hit 7',
        'Hit 8',
        'Hit 9',
        'Hit 10',
        'Hit 11',
        'Hit 12',
      ]);
      expect(body.popular[0]).toEqual({
        id: 'itunes:1',
        artist_id: null,
        artist: 'Artist 1',
        title: 'Hit 1',
        genre: 'Pop',
        cover_art_url: 'https://is1.example.com/1/100x100bb.jpg',
        file_url: null,
        preview_url: 'https://audio.example.com/1.m4a',
        source: 'itunes',
        duration: 201,
        play_count: 0,
        created_at: '2020-01-02T00:00:00.000Z',
        // Not ours to process: no renditions, loudness or waveform (docs/decisions/0014).
        status: 'ready',
        renditions: [],
        loudness: null,
        waveform_url: null,
        has_lyrics: false,
      });
      expect(fake.requests).toHaveLength(1);
      expect(Object.fromEntries(fake.requests[0]!.searchParams)).toEqual({
        term: 'popular',
        entity: 'song',
        limit: '20',
      });
      // Shown, not stored.
      expect((await rows(ctx, sql`select 1 from songs`)).length).toBe(0);
    });
  });

  describe('home, browse and genre tiles', () => {
    beforeAll(async () => {
      // Newer than anything later tests add (negative age) and more played: these own both lists.
      for (let i = 0; i < 8; i++) {
        await seed({
          title: `Home ${i}`,
          genre: i % 2 ? 'Rock' : 'Jazz',
          plays: 10_000 + ((i * 37) % 8) * 100,
          ageMin: -100 - i,
        });
      }
    });

    it('home: 6 newest and 6 most played, never asking the external catalogue', async () => {
      fake.requests.length = 0;
      const res = await get('/api/songs/home');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.external).toBe(false);
      expect(titles(body.recent)).toEqual([
        'Home 7',
        'Home 6',
        'Home 5',
        'Home 4',
        'Home 3',
        'Home 2',
      ]);
      const plays = body.popular.map((s: { play_count: number }) => s.play_count);
      expect(plays).toHaveLength(6);
      expect(plays).toEqual([...plays].sort((a: number, b: number) => b - a));
      expect(plays[0]).toBe(10_700);
      expect(fake.requests).toHaveLength(0);
    });

    it('browse: trending by play count and new releases by date, 6 each', async () => {
      const res = await get('/api/songs/browse');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['new_releases', 'trending']);
      expect(body.trending).toHaveLength(6);
      expect(body.trending[0].play_count).toBe(10_700);
      expect(titles(body.new_releases)[0]).toBe('Home 7');
    });

    it('a genre tile lists that genre case-insensitively, newest first, up to the limit', async () => {
      const res = await get('/api/songs?genre=ROCK&limit=3');
      expect(res.statusCode).toBe(200);
      expect(titles(res.json().songs)).toEqual(['Home 7', 'Home 5', 'Home 3']);
      expect((await get('/api/songs?limit=51')).statusCode).toBe(400);
    });
  });

  describe('search', () => {
    it('finds title or genre containing the query; blank gives nothing', async () => {
      await seed({ title: 'Quasar Nights', genre: 'Electronic' });
      await seed({ title: 'Plain', genre: 'Quasarcore' });
      await seed({ title: 'Unrelated', genre: 'Folk' });
      const res = await search({ q: 'quasar' });
      expect(res.statusCode).toBe(200);
      expect(titles(res.json().songs).sort()).toEqual(['Plain', 'Quasar Nights']);
      expect(res.json().external).toBe(false);
      fake.requests.length = 0;
      expect((await search({ q: '   ' })).json()).toEqual({
        songs: [],
        podcasts: [],
        external: false,
      });
      expect((await search({})).json()).toEqual({ songs: [], podcasts: [], external: false });
      expect(fake.requests).toHaveLength(0);
    });

    it.each([
      ['%', '100% Pure Wave', 'One Hundred Pure'],
      ['_', 'snake_case blues', 'snakeXcase blues'],
      ['\\', 'back\\slash', 'backslash'],
    ])('treats %s as a literal character', async (q, hit, miss) => {
      await seed({ title: hit });
      await seed({ title: miss });
      fake.mode = 'ok';
      fake.tracks = [];
      const found = titles((await search({ q })).json().songs);
      expect(found).toContain(hit);
      expect(found).not.toContain(miss);
    });

    it('handles quotes as plain text', async () => {
      await seed({ title: `Don't "Stop" Me` });
      const res = await search({ q: `'t "Stop"` });
      expect(res.statusCode).toBe(200);
      expect(titles(res.json().songs)).toEqual([`Don't "Stop" Me`]);
    });

    it('refuses a 10 kB query and NUL bytes with 400 and a clear message', async () => {
      const long = await search({ q: 'a'.repeat(10_000) });
      expect(long.statusCode).toBe(400);
      expect(long.json().error).toMatchObject({
        code: 'validation_failed',
        message: 'Search query must be at most 200 characters',
      });
      const nul = await get('/api/search?q=a%00b');
      expect(nul.statusCode).toBe(400);
      expect(nul.json().error.message).toBe('Search query must not contain NUL characters');
      expect((await search({ q: 'x', sort: 'loudest' })).statusCode).toBe(400);
      expect((await search({ q: 'x', limit: '21' })).statusCode).toBe(400);
    });

    it('filters by genre case-insensitively; all means no filter', async () => {
      await seed({ title: 'Marigold One', genre: 'Hip Hop' });
      await seed({ title: 'Marigold Two', genre: 'hip hop' });
      await seed({ title: 'Marigold Three', genre: 'Jazz' });
      const hip = titles((await search({ q: 'marigold', genre: 'hip hop' })).json().songs).sort();
      expect(hip).toEqual(['Marigold One', 'Marigold Two']);
      expect((await search({ q: 'marigold', genre: 'all' })).json().songs).toHaveLength(3);
      expect(titles((await search({ q: 'marigold', genre: 'JAZZ' })).json().songs)).toEqual([
        'Marigold Three',
      ]);
    });

    it('sorts by relevance, popularity or recency', async () => {
      await seed({ title: 'Zephyr Anthem', plays: 5, ageMin: 3 * 1440 });
      await seed({ title: 'Zephyr', plays: 1, ageMin: 1440 });
      await seed({ title: 'Anthem of the Zephyrs', plays: 9, ageMin: 2 * 1440 });
      const order = async (sort: string) =>
        titles((await search({ q: 'zephyr', sort })).json().songs);
      expect((await order('relevance'))[0]).toBe('Zephyr');
      expect(await order('popular')).toEqual(['Anthem of the Zephyrs', 'Zephyr Anthem', 'Zephyr']);
      expect(await order('recent')).toEqual(['Zephyr', 'Anthem of the Zephyrs', 'Zephyr Anthem']);
      expect(await order('relevance')).toEqual(await order('relevance')); // stable
    });

    it('ranks by similarity: the exact title first, closer titles above longer ones, a genre-only match too', async () => {
      await seed({
        title: 'Nocturne for Strings and a Distant Thunder',
        genre: 'Classical',
        plays: 50,
      });
      await seed({ title: 'Nocturne', genre: 'Jazz', plays: 1 });
      await seed({ title: 'Quiet Rain', genre: 'Nocturne Pop', plays: 90 });
      await seed({ title: 'Nocturnes Live', plays: 10 });
      const found = titles((await search({ q: 'nocturne', sort: 'relevance' })).json().songs);
      expect(found[0]).toBe('Nocturne');
      expect(found).toContain('Quiet Rain');
      expect(found.indexOf('Nocturnes Live')).toBeLessThan(
        found.indexOf('Nocturne for Strings and a Distant Thunder'),
      );
      expect(found).toHaveLength(4);
    });

    it('orders a broad term (more matches than a page) exactly as a full scan would', async () => {
      // More than 20 matches: the bounded plan (index head, nearest titles, genre side) runs
      // instead of ranking every match; its page must be the full scan's.
      for (let i = 0; i < 30; i++)
        await seed({ title: `Aurora ${'x'.repeat(i % 7)} Part ${i}`, plays: i % 9, ageMin: i });
      await seed({ title: 'Aurora', plays: 0, ageMin: 40 });
      await seed({ title: 'Untitled', genre: 'Aurora Wave', plays: 1000, ageMin: 50 });
      const score = sql`greatest(
        case when title ilike '%aurora%' then similarity(title, 'aurora') else 0 end,
        case when genre ilike '%aurora%' then similarity(genre, 'aurora') else 0 end)`;
      const orders = {
        relevance: sql`${score} desc, play_count desc, created_at desc, id desc`,
        popular: sql`play_count desc, created_at desc, id desc`,
        recent: sql`created_at desc, id desc`,
      };
      for (const [sort, order] of Object.entries(orders)) {
        const expected = await rows<{ id: string }>(
          ctx,
          sql`select id from songs where title ilike '%aurora%' or genre ilike '%aurora%'
              order by ${order} limit 20`,
        );
        const got = (await search({ q: 'aurora', sort })).json().songs as Array<{ id: string }>;
        expect(got.map((s) => s.id)).toEqual(expected.map((r) => r.id));
      }
      const relevance = titles((await search({ q: 'aurora' })).json().songs);
      expect(relevance[0]).toBe('Aurora');
      expect(relevance).toContain('Untitled');
    });

    it('returns at most 20', async () => {
      for (let i = 0; i < 25; i++) await seed({ title: `Lumen ${i}` });
      expect((await search({ q: 'lumen' })).json().songs).toHaveLength(20);
      expect((await search({ q: 'lumen', limit: '5' })).json().songs).toHaveLength(5);
    });

    it('asks the external catalogue (track, limit 20) only when nothing matches, and shows its previews', async () => {
      fake.mode = 'ok';
      fake.tracks = [
        catalogueTrack(41, 'Faraway Song'),
        catalogueTrack(42, 'Bad Preview', { previewUrl: 'javascript:alert(1)' }),
        catalogueTrack(43, 'No Preview', { previewUrl: undefined }),
        catalogueTrack(44, 'Plain http', {
          previewUrl: 'http://audio.example.com/44.m4a',
          artworkUrl100: 'data:x',
        }),
        { trackName: 'No id' },
        'not an object',
      ];
      fake.requests.length = 0;
      const res = await search({ q: 'xylophonic' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.external).toBe(true);
      expect(body.songs).toHaveLength(1);
      expect(body.songs[0]).toMatchObject({
        id: 'itunes:41',
        title: 'Faraway Song',
        source: 'itunes',
        file_url: null,
        preview_url: 'https://audio.example.com/41.m4a',
      });
      expect(fake.requests).toHaveLength(1);
      expect(Object.fromEntries(fake.requests[0]!.searchParams)).toEqual({
        term: 'xylophonic',
        entity: 'song',
        limit: '20',
      });
      // Answers are cached for a while: the public API allows ~20 calls a minute.
      expect((await search({ q: 'Xylophonic' })).json().songs).toHaveLength(1);
      expect(fake.requests).toHaveLength(1);

      fake.requests.length = 0;
      await search({ q: 'quasar' });
      expect(fake.requests).toHaveLength(0);
    });

    it.each(['error', 'garbage', 'hang'] as const)(
      'gives an empty list when the catalogue %s',
      async (mode) => {
        fake.mode = mode;
        const res = await search({ q: 'nothing-here-at-all' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ songs: [], podcasts: [], external: false });
      },
    );

    it('finds podcasts by title or description', async () => {
      const creator = await makeUser(ctx, 'artist');
      await ctx.db.database.db
        .execute(sql`insert into podcasts (creator_id, title, description) values
        (${creator.userId}, 'The Orbit Hour', 'Space talk'),
        (${creator.userId}, 'Weekly Beats', 'All about orbit mechanics and music'),
        (${creator.userId}, 'Cooking', 'Food')`);
      const res = await search({ q: 'orbit', type: 'podcasts' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.songs).toEqual([]);
      expect(titles(body.podcasts)).toEqual(['The Orbit Hour', 'Weekly Beats']);
      expect(body.podcasts[0]).toMatchObject({
        creator_id: creator.userId,
        description: 'Space talk',
        cover_art_url: null,
      });
    });
  });

  describe('editing and deleting', () => {
    let owner: TestUser;
    let other: TestUser;
    let song: { id: string; file_url: string; cover_art_url: string };

    beforeAll(async () => {
      owner = await makeUser(ctx, 'artist', 'Owner Artist');
      other = await makeUser(ctx, 'artist', 'Other Artist');
      song = await uploadSong(ctx, owner, { title: 'Editable', cover: await makePng(200, 200) });
    });

    const patch = (user: TestUser, id: string, payload: object) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/songs/${id}`, headers: user.headers, payload });
    const fileOf = (url: string) =>
      path.join(ctx.env.dataDir, url.split('?')[0]!.replace('/media/', 'media/'));

    it("lets only the song's artist edit title and genre", async () => {
      expect((await patch(other, song.id, { title: 'Hijacked' })).statusCode).toBe(403);
      expect((await patch(listener, song.id, { title: 'Hijacked' })).statusCode).toBe(403);
      expect(
        (await patch(owner, '00000000-0000-4000-8000-000000000000', { title: 'x' })).statusCode,
      ).toBe(404);
      const ok = await patch(owner, song.id, { title: '  Renamed ', genre: 'Jazz' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ id: song.id, title: 'Renamed', genre: 'Jazz' });
      const blank = await patch(owner, song.id, { title: '  ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().error.message).toBe('Title is required');
      expect((await patch(owner, song.id, { title: 'x'.repeat(201) })).json().error.message).toBe(
        'Title must be less than 200 characters',
      );
      expect((await get(`/api/songs/${song.id}`)).json().title).toBe('Renamed');
    });

    it('replaces the cover for the owner only, deleting the old file', async () => {
      const put = async (user: TestUser) => {
        const { headers, payload } = multipart([
          { name: 'cover', filename: 'n.png', data: await makePng(300, 300) },
        ]);
        return ctx.app.inject({
          method: 'PUT',
          url: `/api/songs/${song.id}/cover`,
          headers: { ...headers, ...user.headers },
          payload,
        });
      };
      const before = storedFiles(ctx.env.dataDir);
      expect((await put(other)).statusCode).toBe(403);
      expect(storedFiles(ctx.env.dataDir)).toEqual(before);
      const res = await put(owner);
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json();
      expect(updated.cover_art_url).not.toBe(song.cover_art_url);
      expect(fs.existsSync(fileOf(updated.cover_art_url))).toBe(true);
      expect(fs.existsSync(fileOf(song.cover_art_url))).toBe(false);
      song = updated;
    });

    it('deletes for the owner only, row first, then its files', async () => {
      const del = (user: TestUser) =>
        ctx.app.inject({ method: 'DELETE', url: `/api/songs/${song.id}`, headers: user.headers });
      expect((await del(other)).statusCode).toBe(403);
      expect((await del(listener)).statusCode).toBe(403);
      expect(fs.existsSync(fileOf(song.file_url))).toBe(true);
      expect((await del(owner)).statusCode).toBe(204);
      expect((await get(`/api/songs/${song.id}`)).statusCode).toBe(404);
      expect(fs.existsSync(fileOf(song.file_url))).toBe(false);
      expect(fs.existsSync(fileOf(song.cover_art_url))).toBe(false);
      expect((await del(owner)).statusCode).toBe(404);
    });

    it('deletes the files of a row whose keys lack the bucket prefix (older rows)', async () => {
      const { headers, payload } = multipart([
        { name: 'file', filename: 'old.wav', data: makeWav(1) },
        { name: 'cover', filename: 'c.png', data: await makePng(64, 64) },
      ]);
      const up = await ctx.app.inject({
        method: 'POST',
        url: '/api/songs',
        headers: { ...headers, ...owner.headers },
        payload,
      });
      const old = up.json();
      await ctx.db.database.db.execute(
        sql`update songs set file_key = split_part(file_key, '/', 2), cover_art_key = split_part(cover_art_key, '/', 2) where id = ${old.id}`,
      );
      expect(fs.existsSync(fileOf(old.file_url))).toBe(true);
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/songs/${old.id}`,
        headers: owner.headers,
      });
      expect(res.statusCode).toBe(204);
      expect(fs.existsSync(fileOf(old.file_url))).toBe(false);
      expect(fs.existsSync(fileOf(old.cover_art_url))).toBe(false);
    });
  });
});
