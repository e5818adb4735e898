import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LikedSongs } from '../../src/contracts/library.contract.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const SIGNED_AUDIO = /^\/media\/music\/seed-[\w-]+\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/;

async function seedSong(ctx: TestContext, title: string, artistId: string | null = null) {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, artist_id, file_url, duration_ms)
        values (${title}, ${artistId}, ${`/media/music/seed-${crypto.randomUUID()}.wav`}, 100000)
        returning id`,
  );
  return row!.id;
}

async function likeRows(ctx: TestContext, userId?: string) {
  return rows<{ user_id: string; song_id: string }>(
    ctx,
    userId
      ? sql`select user_id, song_id from liked_songs where user_id = ${userId}`
      : sql`select user_id, song_id from liked_songs`,
  );
}

describe.each(dbKinds)('liked songs on %s', (kind) => {
  const ctx = useTestApp(kind);
  let listener: TestUser;
  let other: TestUser;
  let artist: TestUser;

  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener', 'Listener');
    other = await makeUser(ctx, 'listener', 'Other');
    artist = await makeUser(ctx, 'artist', 'Artist');
  });

  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, user: TestUser | null) =>
    ctx.app.inject({ method, url, headers: user ? user.headers : {} });
  const like = (songId: string, user: TestUser = listener) =>
    call('PUT', `/api/me/liked-songs/${encodeURIComponent(songId)}`, user);
  const unlike = (songId: string, user: TestUser = listener) =>
    call('DELETE', `/api/me/liked-songs/${encodeURIComponent(songId)}`, user);
  const list = async (user: TestUser = listener) => {
    const res = await call('GET', '/api/me/liked-songs', user);
    expect(res.statusCode).toBe(200);
    return res.json<LikedSongs>();
  };
  const ids = async (user: TestUser = listener) => {
    const res = await call('GET', '/api/me/liked-songs/ids', user);
    expect(res.statusCode).toBe(200);
    return res.json<{ song_ids: string[] }>().song_ids;
  };

  it('likes once however often asked, and unlikes idempotently', async () => {
    const song = await seedSong(ctx, 'Twice Liked');
    expect((await like(song)).statusCode).toBe(204);
    expect((await like(song)).statusCode).toBe(204);
    expect((await likeRows(ctx, listener.userId)).filter((r) => r.song_id === song)).toHaveLength(
      1,
    );
    expect(await ids()).toContain(song);

    expect((await unlike(song)).statusCode).toBe(204);
    expect(await ids()).not.toContain(song);
    expect((await unlike(song)).statusCode).toBe(204);
    expect((await likeRows(ctx, listener.userId)).filter((r) => r.song_id === song)).toHaveLength(
      0,
    );
  });

  it('lists liked songs newest like first, with signed audio URLs', async () => {
    const user = await makeUser(ctx, 'listener', 'Orderly');
    const first = await seedSong(ctx, 'Liked First');
    const second = await seedSong(ctx, 'Liked Second');
    const third = await seedSong(ctx, 'Liked Third');
    for (const id of [second, first, third]) expect((await like(id, user)).statusCode).toBe(204);
    // Liking again keeps the first like's time (and so its place).
    expect((await like(second, user)).statusCode).toBe(204);

    const { items } = await list(user);
    expect(items.map((i) => i.song.id)).toEqual([third, first, second]);
    expect(items[0]!.song.title).toBe('Liked Third');
    expect(items[0]!.song.file_url).toMatch(SIGNED_AUDIO);
    expect(Date.parse(items[0]!.liked_at)).toBeGreaterThanOrEqual(Date.parse(items[2]!.liked_at));
    expect(new Set(await ids(user))).toEqual(new Set([first, second, third]));
  });

  it("does not show another user's likes", async () => {
    const song = await seedSong(ctx, 'Private Taste');
    expect((await like(song, other)).statusCode).toBe(204);
    expect((await list()).items.map((i) => i.song.id)).not.toContain(song);
    expect(await ids()).not.toContain(song);
    // Unliking as someone else leaves the other user's like alone.
    expect((await unlike(song)).statusCode).toBe(204);
    expect(await ids(other)).toContain(song);
  });

  it('answers 401 to a caller who is not signed in, and writes nothing', async () => {
    const song = await seedSong(ctx, 'Anonymous');
    const before = (await likeRows(ctx)).length;
    for (const res of [
      await call('PUT', `/api/me/liked-songs/${song}`, null),
      await call('DELETE', `/api/me/liked-songs/${song}`, null),
      await call('GET', '/api/me/liked-songs', null),
      await call('GET', '/api/me/liked-songs/ids', null),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    expect((await likeRows(ctx)).length).toBe(before);
  });

  it('answers 404 song_not_found for a missing or external song, with nothing written', async () => {
    const before = (await likeRows(ctx)).length;
    for (const id of [crypto.randomUUID(), 'itunes:12345', 'not-a-song']) {
      const res = await like(id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        error: { code: 'song_not_found', message: 'Song not found' },
      });
    }
    expect((await likeRows(ctx)).length).toBe(before);
    // An id that can name no stored song cannot be unliked either.
    const res = await unlike('itunes:12345');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'song_not_found' } });
  });

  it("removes a song's likes when the song is deleted", async () => {
    const song = await seedSong(ctx, 'Soon Gone', artist.userId);
    expect((await like(song)).statusCode).toBe(204);
    expect((await like(song, other)).statusCode).toBe(204);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/songs/${song}`,
      headers: artist.headers,
    });
    expect(res.statusCode).toBe(204);
    expect((await likeRows(ctx)).filter((r) => r.song_id === song)).toHaveLength(0);
    expect(await ids()).not.toContain(song);
    expect((await list()).items.map((i) => i.song.id)).not.toContain(song);
  });
});
