import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { makeUser, uploadSong, type TestUser } from './songs-helpers.ts';

// The answer cache (ADR 0011 "Answer cache"), through the API with its default TTL (10 s):
// this process's uploads, edits and deletions show in search at once; a write made behind
// the app (another process, a trigger) shows once the TTL has passed, not before.

describe.each(dbKinds)('search answer cache on %s', (kind) => {
  // Nothing external: a search with no match must not wait for a catalogue.
  const ctx = useTestApp(kind, { CATALOGUE_URL: 'http://127.0.0.1:9' });
  let artist: TestUser;
  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Cache Artist');
  });

  const titles = async (q: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/search?${new URLSearchParams({ q })}`,
      headers: artist.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { songs: Array<{ title: string }> }).songs.map((s) => s.title);
  };

  const upload = async (title: string) => (await uploadSong(ctx, artist, { title })).id;

  it("shows this process's upload, edit and deletion at once", async () => {
    expect(await titles('quokka')).toEqual([]);
    const id = await upload('Quokka Morning');
    expect(await titles('quokka')).toEqual(['Quokka Morning']);

    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/songs/${id}`,
      headers: artist.headers,
      payload: { title: 'Quokka Evening' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(await titles('quokka')).toEqual(['Quokka Evening']);

    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/songs/${id}`,
      headers: artist.headers,
    });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect(await titles('quokka')).toEqual([]);
  });

  it('serves a repeated search from the cache until the TTL, then reads again', async () => {
    await upload('Pangolin Parade');
    expect(await titles('pangolin')).toEqual(['Pangolin Parade']);
    // Renamed behind the app, as another process would.
    await ctx.db.database.db.execute(
      sql`update songs set title = 'Armadillo Parade' where title = 'Pangolin Parade'`,
    );
    expect(await titles('pangolin')).toEqual(['Pangolin Parade']);
    ctx.clock.advance(9_000);
    expect(await titles('pangolin')).toEqual(['Pangolin Parade']);
    ctx.clock.advance(1_000);
    expect(await titles('pangolin')).toEqual([]);
    expect(await titles('armadillo')).toEqual(['Armadillo Parade']);
  });

  it('keeps an answer whole, renditions included, until the TTL', async () => {
    const id = await upload('Okapi Dawn');
    const renditions = async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/search?q=okapi',
        headers: artist.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const [song] = (res.json() as { songs: Array<{ id: string; renditions: unknown[] }> }).songs;
      expect(song?.id).toBe(id);
      return song!.renditions.map((r) => (r as { bitrate_kbps: number }).bitrate_kbps);
    };
    const db = ctx.db.database.db;
    // Ready with one rendition, as the media pipeline would leave it, behind the app.
    await db.execute(sql`update songs set media_status = 'ready' where id = ${id}`);
    const addRendition = (format: string, kbps: number) =>
      db.execute(sql`insert into song_renditions
        (song_id, format, codec, mime, bitrate_kbps, file_url, file_key, bytes, duration_ms)
        values (${id}, ${format}, 'opus', 'audio/webm; codecs=opus', ${kbps},
          ${`/media/music/${format}.webm`}, ${`music/${format}.webm`}, 1000, 1000)`);
    await addRendition('opus-96', 96);
    ctx.clock.advance(10_000);
    expect(await renditions()).toEqual([96]);
    // A second rendition written behind the app: the kept answer still has one until the TTL.
    await addRendition('opus-160', 160);
    expect(await renditions()).toEqual([96]);
    ctx.clock.advance(9_999);
    expect(await renditions()).toEqual([96]);
    ctx.clock.advance(1);
    expect(await renditions()).toEqual([96, 160]);
  });
});
