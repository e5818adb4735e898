import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistDetail } from '../../src/contracts/playlists.contract.ts';
import type { RecommendationsDto } from '../../src/contracts/recommendations.contract.ts';
import { createPlaysRepository } from '../../src/server/modules/listening/plays.repository.ts';
import { createRecommendationsRepository } from '../../src/server/modules/recommendations/recommendations.repository.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

type World = {
  /** song ids by group, each group 4 artists × 3 songs. */
  jazz: string[];
  circleA: string[];
  circleB: string[];
  pop: string[];
  artistOf: Map<string, string>;
};

const MINUTE = 60_000;

async function account(ctx: TestContext, name: string): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into users (email, password_hash) values (${`${name}@recs.test`}, 'x') returning id`,
  );
  return row!.id;
}

/** 4 artists × 3 songs of `genre`, every song a stored upload. */
async function group(ctx: TestContext, w: World, name: string, genre: string) {
  const ids: string[] = [];
  for (let a = 0; a < 4; a++) {
    const artistId = await account(ctx, `${name}-artist-${a}`);
    for (let s = 0; s < 3; s++) {
      const [row] = await rows<{ id: string }>(
        ctx,
        sql`insert into songs (artist_id, artist, title, genre, file_url, duration_ms)
            values (${artistId}, ${`${name} Artist ${a}`}, ${`${name} ${a}.${s}`}, ${genre},
                    ${`/media/music/${name}-${a}-${s}.wav`}, 100000)
            returning id`,
      );
      ids.push(row!.id);
      w.artistOf.set(row!.id, artistId);
    }
  }
  return ids;
}

/** Plays of `songIds` by `userId`, the last of them `agoMinutes` before the app's clock. */
async function play(ctx: TestContext, userId: string, songIds: string[], agoMinutes = 24 * 60) {
  const base = ctx.clock.now().getTime() - agoMinutes * MINUTE;
  for (const [k, songId] of songIds.entries()) {
    const at = new Date(base - (songIds.length - 1 - k) * MINUTE).toISOString();
    await ctx.db.database.db.execute(
      sql`insert into stream_analytics (user_id, song_id, played_at, listened_ms, completed)
          values (${userId}, ${songId}, ${at}::timestamptz, 90000, true)`,
    );
  }
}

/** Play counts and listener totals folded, then the co-listening table rebuilt, as the jobs do. */
async function settle(ctx: TestContext) {
  const plays = createPlaysRepository(ctx.db.database.db);
  while ((await plays.foldPlayCounts(10_000)) > 0);
  while ((await plays.foldListenerTotals(10_000)) > 0);
  return createRecommendationsRepository(ctx.db.database.db).refreshNeighbours();
}

const pick = <T>(xs: T[], idx: number[]) => idx.map((i) => xs[i % xs.length]!);

describe.each(dbKinds)('recommendations on %s', (kind) => {
  const ctx = useTestApp(kind, { PLAY_COUNT_FOLD_SECONDS: '0' });
  const w: World = { jazz: [], circleA: [], circleB: [], pop: [], artistOf: new Map() };
  let jazzFan: TestUser;
  let circleFan: TestUser;
  let newcomer: TestUser;
  let mixer: TestUser;
  let neighbours = 0;

  const get = (who: TestUser | null, query = '') =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/recommendations${query}`,
      headers: who?.headers ?? {},
    });
  const generate = (who: TestUser | null) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/recommendations/playlist',
      headers: who?.headers ?? {},
    });
  const recs = async (who: TestUser, query = '') => {
    const res = await get(who, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as RecommendationsDto;
  };
  const tracksOf = async (who: TestUser, id: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/playlists/${id}`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PlaylistDetail;
  };

  beforeAll(async () => {
    w.jazz = await group(ctx, w, 'Jazz', 'Jazz');
    w.circleA = await group(ctx, w, 'CircleA', 'Rock');
    w.circleB = await group(ctx, w, 'CircleB', 'Rock');
    w.pop = await group(ctx, w, 'Pop', 'Pop');
    // Planted tastes: listeners of one genre, of one circle of artists, and many of pop hits.
    for (let l = 0; l < 6; l++) {
      await play(
        ctx,
        await account(ctx, `jazz-${l}`),
        pick(w.jazz, [l, l + 2, l + 3, l + 5, l + 7, l + 8, l + 10, l + 11]),
      );
      await play(
        ctx,
        await account(ctx, `a-${l}`),
        pick(w.circleA, [l, l + 1, l + 3, l + 4, l + 6, l + 7, l + 9, l + 10]),
      );
      await play(
        ctx,
        await account(ctx, `b-${l}`),
        pick(w.circleB, [l, l + 1, l + 3, l + 4, l + 6, l + 7, l + 9, l + 10]),
      );
    }
    for (let l = 0; l < 10; l++) {
      const listener = await account(ctx, `pop-${l}`);
      for (let r = 0; r < 3; r++) await play(ctx, listener, w.pop, 48 * 60 + r * 60);
    }
    jazzFan = await makeUser(ctx, 'listener', 'Jazz Fan');
    circleFan = await makeUser(ctx, 'listener', 'Circle Fan');
    newcomer = await makeUser(ctx, 'listener', 'New Here');
    mixer = await makeUser(ctx, 'listener', 'Mixer');
    // The jazz fan also heard one pop hit; the circle fan two of circle A's four artists.
    await play(ctx, jazzFan.userId, [w.jazz[0]!, w.jazz[4]!, w.pop[0]!, w.jazz[8]!], 30);
    await play(
      ctx,
      circleFan.userId,
      [w.circleA[0]!, w.circleA[1]!, w.circleA[3]!, w.circleA[4]!],
      30,
    );
    await play(ctx, mixer.userId, [w.jazz[1]!, w.circleA[2]!, w.jazz[5]!], 30);
    neighbours = await settle(ctx);
  });

  it('builds the co-listening table from the planted tastes', async () => {
    expect(neighbours).toBeGreaterThan(0);
    // A jazz song's neighbours are jazz songs: no listener played jazz with anything else.
    const near = await rows<{ neighbour_id: string }>(
      ctx,
      sql`select neighbour_id from song_neighbours where song_id = ${w.jazz[0]}`,
    );
    expect(near.length).toBeGreaterThan(0);
    for (const n of near) expect([...w.jazz, w.pop[0]]).toContain(n.neighbour_id);
  });

  it('gives a jazz listener jazz first, never what they just played', async () => {
    const body = await recs(jazzFan);
    expect(body.personal).toBe(true);
    expect(body.songs).toHaveLength(10);
    expect(body.songs.slice(0, 5).map((s) => s.genre)).toEqual(Array(5).fill('Jazz'));
    const ids = body.songs.map((s) => s.id);
    for (const played of [w.jazz[0], w.jazz[4], w.pop[0], w.jazz[8]])
      expect(ids).not.toContain(played);
    expect(new Set(ids).size).toBe(ids.length);
    // The song cards' shape: artist name and genre with the signed audio.
    expect(body.songs[0]).toMatchObject({
      artist: expect.stringMatching(/^Jazz Artist/),
      title: expect.any(String),
    });
    expect(body.songs[0]!.file_url).toMatch(/^\/media\/music\/.+\?e=/);
  });

  it('gives a listener of two artists of a circle the rest of that circle', async () => {
    const body = await recs(circleFan, '?limit=6');
    const top = body.songs.map((s) => s.id);
    expect(top).toHaveLength(6);
    for (const id of top) expect(w.circleA).toContain(id);
    // …including the circle's artists they never played.
    const heard = new Set([w.circleA[0], w.circleA[3]].map((id) => w.artistOf.get(id!)));
    expect(top.some((id) => !heard.has(w.artistOf.get(id)))).toBe(true);
  });

  it('answers a listener without history with the most played songs (cold start)', async () => {
    const body = await recs(newcomer, '?limit=10');
    expect(body.personal).toBe(false);
    const popular = await rows<{ id: string }>(
      ctx,
      sql`select id from songs where source is null
          order by play_count desc, created_at desc, id desc limit 10`,
    );
    expect(body.songs.map((s) => s.id)).toEqual(popular.map((r) => r.id));
    expect(body.songs.slice(0, 12).every((s) => s.genre === 'Pop')).toBe(true);
  });

  it('filters by genre, ignoring case, and answers an unknown genre with no songs', async () => {
    for (const genre of ['jazz', 'JAZZ', ' Jazz ']) {
      const body = await recs(circleFan, `?genre=${encodeURIComponent(genre)}&limit=50`);
      expect(body.songs.length).toBeGreaterThan(0);
      expect(body.songs.every((s) => s.genre === 'Jazz')).toBe(true);
    }
    const cold = await recs(newcomer, '?genre=rock&limit=5');
    expect(cold.songs).toHaveLength(5);
    expect(cold.songs.every((s) => s.genre === 'Rock')).toBe(true);
    expect((await recs(jazzFan, '?genre=polka')).songs).toEqual([]);
  });

  it('excludes a song the moment it is played through the API', async () => {
    const first = (await recs(jazzFan, '?limit=1')).songs[0]!;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/plays',
      headers: jazzFan.headers,
      payload: { song_id: first.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = (await recs(jazzFan, '?limit=50')).songs.map((s) => s.id);
    expect(after).not.toContain(first.id);
  });

  it('generates a private AI mix of 20 songs owned by the caller, and regenerates it', async () => {
    const res = await generate(mixer);
    expect(res.statusCode, res.body).toBe(201);
    const mix = res.json() as {
      playlist_id: string;
      title: string;
      track_count: number;
      created: boolean;
    };
    expect(mix).toMatchObject({ track_count: 20, created: true });
    expect(mix.title).toMatch(/Mix · /);
    const playlist = await tracksOf(mixer, mix.playlist_id);
    expect(playlist.playlist.user_id).toBe(mixer.userId);
    expect(playlist.playlist.is_public).toBe(false);
    const first = playlist.tracks.map((t) => t.song.id);
    expect(first).toHaveLength(20);
    expect(new Set(first).size).toBe(20);
    for (const played of [w.jazz[1], w.circleA[2], w.jazz[5]]) expect(first).not.toContain(played);

    const current = await ctx.app.inject({
      method: 'GET',
      url: '/api/recommendations/playlist',
      headers: mixer.headers,
    });
    expect(current.json()).toEqual({ playlist_id: mix.playlist_id });

    // Again: the same playlist, new tracks first (the world has 48 songs, 3 just played).
    const again = await generate(mixer);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({
      playlist_id: mix.playlist_id,
      created: false,
      track_count: 20,
    });
    const second = (await tracksOf(mixer, mix.playlist_id)).tracks.map((t) => t.song.id);
    expect(second).toHaveLength(20);
    expect(new Set(second).size).toBe(20);
    expect(second.filter((id) => !first.includes(id)).length).toBeGreaterThanOrEqual(
      20 - (48 - 3 - 20),
    );
    const mine = await rows<{ n: number | string }>(
      ctx,
      sql`select count(*) as n from playlists where user_id = ${mixer.userId}`,
    );
    expect(Number(mine[0]!.n)).toBe(1);

    // A mix the listener deleted is made anew.
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/playlists/${mix.playlist_id}`,
      headers: mixer.headers,
    });
    expect(del.statusCode).toBe(204);
    const fresh = await generate(mixer);
    expect(fresh.json()).toMatchObject({ created: true, track_count: 20 });
    expect(fresh.json().playlist_id).not.toBe(mix.playlist_id);
  });

  it('makes one mix of two generations at once', async () => {
    const twice = await makeUser(ctx, 'listener', 'Double Click');
    const [a, b] = await Promise.all([generate(twice), generate(twice)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().playlist_id).toBe(b.json().playlist_id);
    expect([a.json().created, b.json().created].sort()).toEqual([false, true]);
    const [mine] = await rows<{ n: number | string }>(
      ctx,
      sql`select count(*) as n from playlists where user_id = ${twice.userId}`,
    );
    expect(Number(mine!.n)).toBe(1);
  });

  it('makes a mix for a listener without history too (the most played songs)', async () => {
    const res = await generate(newcomer);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().track_count).toBe(20);
  });

  it('never shows one listener another listener’s mix', async () => {
    const theirs = (await generate(jazzFan)).json().playlist_id as string;
    const peek = await ctx.app.inject({
      method: 'GET',
      url: `/api/playlists/${theirs}`,
      headers: circleFan.headers,
    });
    expect(peek.statusCode).toBe(404);
    const own = await ctx.app.inject({
      method: 'GET',
      url: '/api/recommendations/playlist',
      headers: circleFan.headers,
    });
    expect(own.json()).toEqual({ playlist_id: null });
    // The circle fan's list says nothing of the jazz fan's plays: it is the same whoever else listens.
    const before = (await recs(circleFan, '?limit=6')).songs.map((s) => s.id);
    for (const id of before) expect(w.circleA).toContain(id);
  });

  it('refuses signed-out callers with 401', async () => {
    for (const res of [
      await get(null),
      await generate(null),
      await ctx.app.inject({ method: 'GET', url: '/api/recommendations/playlist' }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('auth_required');
    }
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const count = async () =>
      Number(
        (
          await rows<{ n: number | string }>(
            ctx,
            sql`select (select count(*) from playlists) + (select count(*) from ai_mixes) as n`,
          )
        )[0]!.n,
      );
    const before = await count();
    for (const query of [
      '?limit=0',
      '?limit=1000',
      '?limit=abc',
      '?limit=2.5',
      `?genre=${'j'.repeat(10_000)}`,
      '?genre=%00',
    ]) {
      const res = await get(jazzFan, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await recs(jazzFan, '?limit=50')).songs.length).toBeLessThanOrEqual(50);
    expect(await count()).toBe(before);
  });
});
