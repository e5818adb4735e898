// A listener's state through Subsonic apps: stars are the web's likes and follows, scrobbles
// are plays counted once however often a phone replays them, now playing is private and
// expires, and a play queue saved on one device is read on another. Every refusal is an
// envelope with its code, and writes nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp } from './auth-helpers.ts';
import { rows } from './songs-helpers.ts';
import { phoneAccount, type PhoneAccount as Account } from './subsonic-helpers.ts';

type Json = Record<string, unknown>;
type Envelope = Json & { status: string; error?: { code: number; message: string } };
type Query = Record<string, string | string[]>;

const DURATION_MS = 183_400;

describe.each(dbKinds)('Subsonic user state on %s', (kind) => {
  const ctx = useTestApp(kind);
  let me: Account;
  let other: Account;
  let admin: Account;
  let artistA: Account;
  let artistB: Account;
  const s: Record<string, string> = {};

  const account = (name?: string) => phoneAccount(ctx.app, name);

  async function song(artist: Account, name: string, title: string, created: string) {
    const key = `${title.replace(/\W+/g, '-')}.mp3`;
    const [row] = await rows<{ id: string }>(
      ctx,
      sql`insert into songs (artist_id, artist, title, genre, file_url, file_key, duration_ms, created_at)
          values (${artist.userId}, ${name}, ${title}, 'Rock', ${`/media/music/${key}`},
            ${`music/${key}`}, ${DURATION_MS}, ${created}::timestamptz)
          returning id`,
    );
    return row!.id;
  }

  /** POST /rest/<method> with a form body (repeated names allowed); the envelope's inside. */
  async function rest(method: string, query: Query = {}, who: Account = me, client = 'Phone') {
    const form = new URLSearchParams({ v: '1.16.1', c: client, f: 'json' });
    form.set('u', who.email);
    form.set('p', who.password);
    for (const [name, value] of Object.entries(query))
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/rest/${method}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
      remoteAddress: freshIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  }
  const ok = async (method: string, query: Query = {}, who: Account = me, client = 'Phone') => {
    const body = await rest(method, query, who, client);
    expect(body.status, JSON.stringify(body.error)).toBe('ok');
    return body;
  };
  const fails = async (method: string, query: Query, code: number, who: Account = me) => {
    const body = await rest(method, query, who);
    expect(body.status, `${method} ${JSON.stringify(query)}`).toBe('failed');
    expect(body.error?.code, body.error?.message).toBe(code);
  };
  const count = async (query: ReturnType<typeof sql>) =>
    Number((await rows<{ n: number }>(ctx, query))[0]!.n);
  const likedIds = async (who: Account) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/me/liked-songs/ids',
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ song_ids: string[] }>().song_ids;
  };
  const following = async (who: Account) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/me/following',
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: { user_id: string }[] }>().items.map((i) => i.user_id);
  };
  const starred2 = async (who: Account = me) =>
    (await ok('getStarred2', {}, who)).starred2 as {
      artist: Json[];
      album: Json[];
      song: Json[];
    };
  const plays = (who: Account) =>
    count(sql`select count(*)::int as n from stream_analytics where user_id = ${who.userId}`);

  beforeAll(async () => {
    me = await account('Me Listener');
    other = await account('Other Listener');
    admin = await account('The Admin');
    await ctx.db.database.db.execute(
      sql`insert into user_roles (user_id, role) values (${admin.userId}, 'admin')`,
    );
    artistA = await account('Artist A');
    artistB = await account('Artist B');
    s.a1 = await song(artistA, 'Artist A', 'A one', '2024-02-01T10:00:00Z');
    s.a2 = await song(artistA, 'Artist A', 'A two', '2024-06-01T10:00:00Z');
    s.a3 = await song(artistA, 'Artist A', 'A three', '2025-01-05T10:00:00Z');
    s.b1 = await song(artistB, 'Artist B', 'B one', '2023-03-01T10:00:00Z');
  });

  describe('star and unstar', () => {
    it('stars a song as a like the web shows, and the web like shows as starred', async () => {
      await ok('star', { id: s.a1! });
      await ok('star', { id: s.a1! });
      expect(await likedIds(me)).toEqual([s.a1]);
      expect(
        await count(sql`select count(*)::int as n from liked_songs where user_id = ${me.userId}`),
      ).toBe(1);

      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/me/liked-songs/${s.b1}`,
        headers: me.headers,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const starred = await starred2();
      expect(starred.song.map((x) => x.id)).toEqual([s.b1, s.a1]);
      expect(starred.song[0]!.starred).toEqual(expect.any(String));
      // The albums holding a liked song, and no artist (none is followed yet).
      expect(starred.album.map((x) => x.id).sort()).toEqual(
        [`al-${artistA.userId}-2024`, `al-${artistB.userId}-2023`].sort(),
      );
      expect(starred.artist).toEqual([]);
      // The old method answers the same under `starred`.
      expect(((await ok('getStarred')).starred as { song: Json[] }).song).toHaveLength(2);
      // Another listener's stars are theirs.
      expect((await starred2(other)).song).toEqual([]);

      await ok('unstar', { id: [s.a1!, s.b1!] });
      await ok('unstar', { id: s.a1! });
      expect(await likedIds(me)).toEqual([]);
      expect((await starred2()).song).toEqual([]);
    });

    it('stars an album as every one of its songs, and unstars it the same way', async () => {
      const album = `al-${artistA.userId}-2024`;
      await ok('star', { albumId: album });
      expect((await likedIds(me)).sort()).toEqual([s.a1, s.a2].sort());
      const starred = await starred2();
      expect(starred.album.map((x) => x.id)).toEqual([album]);
      expect(starred.album[0]!.starred).toEqual(expect.any(String));
      const got = await ok('getAlbum', { id: album });
      expect((got.album as Json).starred).toEqual(expect.any(String));

      await ok('unstar', { id: album });
      expect(await likedIds(me)).toEqual([]);
      expect((await starred2()).album).toEqual([]);
    });

    it('stars an artist as a follow the web shows, never oneself', async () => {
      await ok('star', { artistId: `ar-${artistA.userId}` });
      await ok('star', { id: `ar-${artistB.userId}` });
      await ok('star', { id: `ar-${artistB.userId}` });
      expect((await following(me)).sort()).toEqual([artistA.userId, artistB.userId].sort());
      // The followed artist was told once, as by the web's Follow.
      expect(
        await count(
          sql`select count(*)::int as n from notifications
              where user_id = ${artistB.userId} and type = 'new_follower'`,
        ),
      ).toBe(1);
      expect((await starred2()).artist.map((x) => x.id)).toEqual([
        `ar-${artistB.userId}`,
        `ar-${artistA.userId}`,
      ]);

      await ok('unstar', { artistId: `ar-${artistA.userId}` });
      expect(await following(me)).toEqual([artistB.userId]);
      const web = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/follows/${artistB.userId}`,
        headers: me.headers,
      });
      expect(web.statusCode, web.body).toBe(200);
      expect((await starred2()).artist).toEqual([]);

      await fails('star', { id: `ar-${artistA.userId}` }, 0, artistA);
      expect(await following(artistA)).toEqual([]);
    });

    it('refuses unknown, foreign and malformed ids, writing nothing', async () => {
      const ghost = crypto.randomUUID();
      const before = () =>
        count(sql`select
          (select count(*) from liked_songs where user_id = ${me.userId})
          + (select count(*) from user_follows where follower_id = ${me.userId}) as n`);
      const start = await before();
      await fails('star', { id: [s.a1!, ghost] }, 70);
      await fails('star', { id: s.a1!, artistId: `ar-${ghost}` }, 70);
      await fails('star', { id: s.a1!, albumId: `al-${artistA.userId}-1999` }, 70);
      await fails('star', { id: s.a1!, albumId: `ar-${artistA.userId}` }, 70);
      await fails('star', { id: [s.a1!, '../../etc/passwd'] }, 70);
      await fails('star', { id: [s.a1!, `pc-${ghost}`] }, 70);
      await fails('star', { id: [s.a1!, `ar-${other.userId}`] }, 70);
      await fails('star', {}, 10);
      await fails('star', { id: Array.from({ length: 501 }, () => s.a1!) }, 0);
      await fails('unstar', { id: [s.a1!, ghost] }, 70);
      expect(await before()).toBe(start);
    });
  });

  describe('scrobble', () => {
    it('counts a phone’s offline plays once however often they are replayed', async () => {
      const t1 = Date.now() - 3 * 3600_000;
      const t2 = t1 + 10 * 60_000;
      const batch = { id: [s.a3!, s.b1!], time: [String(t1), String(t2)] };
      await ok('scrobble', batch);
      await ok('scrobble', batch);
      await ok('scrobble', { id: s.a3!, time: String(t1), submission: 'true' });

      const recorded = await rows<{
        song_id: string;
        played_at: Date | string;
        listened_ms: number;
        completed: boolean;
      }>(
        ctx,
        sql`select song_id, played_at, listened_ms, completed from stream_analytics
            where user_id = ${me.userId} order by played_at`,
      );
      expect(recorded.map((r) => [r.song_id, new Date(r.played_at).getTime()])).toEqual([
        [s.a3, t1],
        [s.b1, t2],
      ]);
      expect(recorded.every((r) => Number(r.listened_ms) === DURATION_MS && r.completed)).toBe(
        true,
      );
      // play_count rises by one per play once the pending counts are folded (every 2 s).
      await expect
        .poll(
          () =>
            count(sql`select coalesce(sum(play_count), 0)::int as n from songs
                      where id in (${s.a3}, ${s.b1})`),
          { timeout: 15_000, interval: 250 },
        )
        .toBe(2);
      const stats = await ctx.app.inject({
        method: 'GET',
        url: '/api/me/stats',
        headers: me.headers,
      });
      expect(stats.json()).toMatchObject({ totalStreams: 2, completedStreams: 2 });
      // Subsonic shows the counted plays.
      const got = await ok('getSong', { id: s.b1! });
      expect((got.song as Json).playCount).toBe(1);
    });

    it('adds a late play to an artist’s day the dashboard already counted', async () => {
      const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const at = Date.parse(`${day}T08:00:00Z`);
      // The day was counted (final: written after it ended) with someone else's one play.
      await ctx.db.database.db.execute(
        sql`insert into artist_daily_analytics
              (artist_id, analytics_date, total_streams, unique_listeners, listened_ms, updated_at)
            values (${artistB.userId}, ${day}::date, 1, 1, 1000, now())`,
      );
      const dayRow = async () =>
        (
          await rows<{ total_streams: number; unique_listeners: number; listened_ms: number }>(
            ctx,
            sql`select total_streams, unique_listeners, listened_ms from artist_daily_analytics
                where artist_id = ${artistB.userId} and analytics_date = ${day}::date`,
          )
        ).map((r) => [
          Number(r.total_streams),
          Number(r.unique_listeners),
          Number(r.listened_ms),
        ])[0];
      await ok('scrobble', { id: s.b1!, time: String(at) });
      await ok('scrobble', { id: s.b1!, time: String(at) });
      expect(await dayRow()).toEqual([2, 2, 1000 + DURATION_MS]);
      // The same listener again that day: one more stream, no new listener.
      await ok('scrobble', { id: s.b1!, time: String(at + 3600_000) });
      expect(await dayRow()).toEqual([3, 2, 1000 + 2 * DURATION_MS]);
    });

    it('records a play without a time at the server’s time', async () => {
      const before = await plays(other);
      await ok('scrobble', { id: s.a1! }, other);
      expect(await plays(other)).toBe(before + 1);
    });

    it('refuses future and stale times, unknown songs and bad input, writing nothing', async () => {
      const start = await plays(me);
      const now = ctx.clock.now().getTime();
      await fails('scrobble', { id: s.a1!, time: String(now + 10 * 60_000) }, 0);
      await fails('scrobble', { id: s.a1!, time: String(now - 15 * 24 * 3600_000) }, 0);
      await fails(
        'scrobble',
        { id: [s.a1!, s.a2!], time: [String(now), String(now + 3600_000)] },
        0,
      );
      await fails('scrobble', { id: [s.a1!, crypto.randomUUID()] }, 70);
      await fails('scrobble', { id: [s.a1!, '../../etc/passwd'] }, 70);
      await fails('scrobble', { id: `ar-${artistA.userId}` }, 70);
      await fails('scrobble', { id: [s.a1!, s.a2!], time: String(now) }, 0);
      await fails('scrobble', { id: s.a1!, time: 'yesterday' }, 0);
      await fails('scrobble', { id: s.a1!, submission: 'maybe' }, 0);
      await fails('scrobble', { id: Array.from({ length: 501 }, () => s.a1!) }, 0);
      await fails('scrobble', {}, 10);
      expect(await plays(me)).toBe(start);
      // A time within a minute's clock skew is taken.
      await ok('scrobble', { id: s.a1!, time: String(now + 30_000) });
      expect(await plays(me)).toBe(start + 1);
    });
  });

  describe('now playing', () => {
    it('shows a player’s song to its listener and admins only, until it ends', async () => {
      const start = await plays(me);
      await ok('scrobble', { id: s.a2!, submission: 'false' }, me, 'Phone');
      await ok('scrobble', { id: s.b1!, submission: 'false' }, me, 'Desktop');
      await ok('scrobble', { id: s.a1!, submission: 'false' }, me, 'Phone');
      // Now playing is not a play.
      expect(await plays(me)).toBe(start);

      const mine = ((await ok('getNowPlaying')).nowPlaying as { entry: Json[] }).entry;
      expect(mine.map((e) => [e.id, e.playerName, e.username, e.minutesAgo])).toEqual(
        expect.arrayContaining([
          [s.a1, 'Phone', me.email, 0],
          [s.b1, 'Desktop', me.email, 0],
        ]),
      );
      expect(mine).toHaveLength(2);
      expect(mine[0]).toMatchObject({ title: expect.any(String), playerId: expect.any(Number) });

      const theirs = ((await ok('getNowPlaying', {}, other)).nowPlaying as { entry: Json[] }).entry;
      expect(theirs).toEqual([]);
      const all = ((await ok('getNowPlaying', {}, admin)).nowPlaying as { entry: Json[] }).entry;
      expect(all.filter((e) => e.username === me.email)).toHaveLength(2);

      await fails('scrobble', { id: crypto.randomUUID(), submission: 'false' }, 70);

      ctx.clock.advance(2 * 60_000);
      const later = ((await ok('getNowPlaying')).nowPlaying as { entry: Json[] }).entry;
      expect(later.map((e) => e.minutesAgo)).toEqual([2, 2]);
      ctx.clock.advance(DURATION_MS);
      expect(((await ok('getNowPlaying')).nowPlaying as { entry: Json[] }).entry).toEqual([]);
      expect(
        ((await ok('getNowPlaying', {}, admin)).nowPlaying as { entry: Json[] }).entry,
      ).toEqual([]);
    });
  });

  describe('play queue', () => {
    it('is saved on one device and read on another', async () => {
      expect((await ok('getPlayQueue')).playQueue).toBeUndefined();
      await ok('savePlayQueue', { id: [s.b1!, s.a2!, s.a1!], current: s.a2!, position: '12345' });
      const queue = (await ok('getPlayQueue', {}, me, 'Desktop')).playQueue as Json & {
        entry: Json[];
      };
      expect(queue.entry.map((e) => e.id)).toEqual([s.b1, s.a2, s.a1]);
      expect(queue).toMatchObject({
        current: s.a2,
        position: 12345,
        username: me.email,
        changedBy: 'Phone',
        changed: expect.any(String),
      });
      // Another listener has their own (none).
      expect((await ok('getPlayQueue', {}, other)).playQueue).toBeUndefined();

      await ok('savePlayQueue', { id: [s.a3!], position: '0' }, me, 'Desktop');
      expect((await ok('getPlayQueue')).playQueue).toMatchObject({
        entry: [expect.objectContaining({ id: s.a3 })],
        changedBy: 'Desktop',
      });
    });

    it('keeps the current song by its place, for the index-based pair too', async () => {
      const gone = await song(artistB, 'Artist B', 'B gone', '2023-05-01T10:00:00Z');
      await ok('savePlayQueueByIndex', {
        id: [s.b1!, gone, s.a1!, s.b1!],
        currentIndex: '3',
        position: '500',
      });
      const byIndex = (await ok('getPlayQueueByIndex', {}, me, 'Desktop'))
        .playQueueByIndex as Json & {
        entry: Json[];
      };
      expect(byIndex.entry.map((e) => e.id)).toEqual([s.b1, gone, s.a1, s.b1]);
      expect(byIndex).toMatchObject({ currentIndex: 3, position: 500, changedBy: 'Phone' });
      expect((await ok('getPlayQueue')).playQueue).toMatchObject({ current: s.b1 });
      // A song deleted since is left out, and the current place follows.
      await ctx.db.database.db.execute(sql`delete from songs where id = ${gone}`);
      const after = (await ok('getPlayQueueByIndex')).playQueueByIndex as Json & {
        entry: Json[];
      };
      expect(after.entry.map((e) => e.id)).toEqual([s.b1, s.a1, s.b1]);
      expect(after.currentIndex).toBe(2);
      await fails('savePlayQueueByIndex', { id: [s.a1!], currentIndex: '1' }, 0);
      await fails('savePlayQueueByIndex', { id: [s.a1!], currentIndex: 'x' }, 0);
      const names = (
        (await ok('getOpenSubsonicExtensions')).openSubsonicExtensions as { name: string }[]
      ).map((e) => e.name);
      expect(names).toContain('indexBasedQueue');
    });

    it('refuses unknown songs and oversized queues keeping the saved one; empty clears', async () => {
      await ok('savePlayQueue', { id: [s.a1!, s.a2!], current: s.a1! });
      const saved = await ok('getPlayQueue');
      await fails('savePlayQueue', { id: [s.a1!, crypto.randomUUID()] }, 70);
      await fails('savePlayQueue', { id: [s.a1!, '../../etc/passwd'] }, 70);
      await fails('savePlayQueue', { id: Array.from({ length: 1001 }, () => s.a1!) }, 0);
      await fails('savePlayQueue', { id: [s.a1!], current: s.a3! }, 0);
      await fails('savePlayQueue', { id: [s.a1!], position: '-5' }, 0);
      expect(await ok('getPlayQueue')).toEqual(saved);
      // The cap itself is accepted.
      await ok('savePlayQueue', {
        id: Array.from({ length: 1000 }, (_, i) => (i % 2 ? s.a1! : s.b1!)),
      });
      expect(((await ok('getPlayQueue')).playQueue as { entry: Json[] }).entry).toHaveLength(1000);

      await ok('savePlayQueue', {});
      expect((await ok('getPlayQueue')).playQueue).toBeUndefined();
      expect(
        await count(sql`select count(*)::int as n from play_queues where user_id = ${me.userId}`),
      ).toBe(0);
    });
  });
});
