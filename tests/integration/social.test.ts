import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  FollowingList,
  FollowState,
  ProfileDto,
  ProfileSongs,
} from '../../src/contracts/social.contract.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makePng, makeUser, multipart, rows, storedFiles, type TestUser } from './songs-helpers.ts';

// Profiles and follows through the API (docs/decisions/0020): profiles (read, edit, avatar),
// follows and the following list, each rule on PGlite and PostgreSQL.

async function seedSong(
  ctx: TestContext,
  artistId: string,
  title: string,
  opts: { plays?: number; at?: string } = {},
) {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, artist_id, file_url, duration_ms, play_count, created_at)
        values (${title}, ${artistId}, ${`/media/music/seed-${crypto.randomUUID()}.wav`}, 100000,
                ${opts.plays ?? 0}, ${opts.at ?? new Date().toISOString()}::timestamptz)
        returning id`,
  );
  return row!.id;
}

const followRows = (ctx: TestContext, followerId: string) =>
  rows<{ following_id: string }>(
    ctx,
    sql`select following_id from user_follows where follower_id = ${followerId}`,
  );

const notificationsOf = (ctx: TestContext, userId: string) =>
  rows<{ type: string; title: string; message: string; link: string | null }>(
    ctx,
    sql`select type, title, message, link from notifications where user_id = ${userId}
        order by created_at`,
  );

describe.each(dbKinds)('profiles and follows on %s', (kind) => {
  const ctx = useTestApp(kind);
  let listener: TestUser;
  let artist: TestUser;

  beforeAll(async () => {
    listener = await makeUser(ctx, 'listener', 'Lena Listener');
    artist = await makeUser(ctx, 'artist', 'Arlo Artist');
  });

  type Method = 'GET' | 'PUT' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, user: TestUser | null, payload?: object) =>
    ctx.app.inject({ method, url, headers: user ? user.headers : {}, payload });
  const profile = async (of: TestUser | string, as: TestUser = listener) => {
    const id = typeof of === 'string' ? of : of.userId;
    const res = await call('GET', `/api/profiles/${id}`, as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ProfileDto>();
  };
  const patch = (user: TestUser, body: object) => call('PATCH', '/api/me/profile', user, body);
  const follow = (id: string, as: TestUser = listener) => call('PUT', `/api/follows/${id}`, as);
  const unfollow = (id: string, as: TestUser = listener) =>
    call('DELETE', `/api/follows/${id}`, as);
  const following = async (as: TestUser, query = '') => {
    const res = await call('GET', `/api/me/following${query}`, as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FollowingList>();
  };
  const avatarUpload = (user: TestUser, parts: Parameters<typeof multipart>[0]) => {
    const { headers, payload } = multipart(parts);
    return ctx.app.inject({
      method: 'PUT',
      url: '/api/me/profile/avatar',
      headers: { ...headers, ...user.headers },
      payload,
    });
  };
  const coverArtFiles = () => storedFiles(ctx.env.dataDir).filter((f) => f.includes('cover-art'));

  describe('profiles', () => {
    it("shows another user's profile with counts, and one's own as own", async () => {
      await seedSong(ctx, artist.userId, 'Counted One', { plays: 7 });
      await seedSong(ctx, artist.userId, 'Counted Two', { plays: 5 });
      const seen = await profile(artist);
      expect(seen).toMatchObject({
        user_id: artist.userId,
        display_name: 'Arlo Artist',
        bio: null,
        avatar_url: null,
        is_own: false,
        is_following: false,
        is_artist: true,
        song_count: 2,
        total_plays: 12,
      });
      expect(Date.now() - Date.parse(seen.member_since)).toBeLessThan(10 * 60_000);

      const own = await call('GET', '/api/me/profile', listener);
      expect(own.statusCode).toBe(200);
      expect(own.json<ProfileDto>()).toMatchObject({
        user_id: listener.userId,
        display_name: 'Lena Listener',
        is_own: true,
        is_following: false,
        is_artist: false,
        song_count: 0,
        total_plays: 0,
      });
      expect((await profile(listener)).is_own).toBe(true);
    });

    it("answers 404 'Profile not found' for an unknown user and 400 for a malformed id", async () => {
      const missing = await call('GET', `/api/profiles/${crypto.randomUUID()}`, listener);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('Profile not found');
      const songs = await call('GET', `/api/profiles/${crypto.randomUUID()}/songs`, listener);
      expect(songs.statusCode).toBe(404);
      expect((await call('GET', '/api/profiles/not-a-uuid', listener)).statusCode).toBe(400);
    });

    it('edits name and bio: trimmed, blank or invisible stored as null, omitted keys kept', async () => {
      const user = await makeUser(ctx, 'listener', 'Edith Editor');
      let res = await patch(user, { display_name: '  Edie  ', bio: '  Line one\nLine two  ' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ display_name: 'Edie', bio: 'Line one\nLine two' });

      // Only the bio: the name stays.
      res = await patch(user, { bio: '   ' });
      expect(res.json()).toMatchObject({ display_name: 'Edie', bio: null });
      // Invisible characters only count as blank; null clears too.
      res = await patch(user, { display_name: '\u200B\u00A0', bio: null });
      expect(res.json()).toMatchObject({ display_name: null, bio: null });
      const [row] = await rows<{ display_name: string | null; bio: string | null }>(
        ctx,
        sql`select display_name, bio from profiles where user_id = ${user.userId}`,
      );
      expect(row).toEqual({ display_name: null, bio: null });
      // Exactly the limits pass.
      res = await patch(user, { display_name: 'n'.repeat(50), bio: 'b'.repeat(500) });
      expect(res.statusCode).toBe(200);
    });

    it('refuses a name over 50, a bio over 500 and unknown keys with the spec messages, changing nothing', async () => {
      const user = await makeUser(ctx, 'listener', 'Steady Name');
      await patch(user, { bio: 'Kept bio' });
      const cases: Array<[object, string | null]> = [
        [{ display_name: 'n'.repeat(51) }, 'Display name must be less than 50 characters'],
        [{ bio: 'b'.repeat(501) }, 'Bio must be less than 500 characters'],
        [{ display_name: 'Fine', avatar_url: 'https://evil.example/x.png' }, null],
        [{ display_name: 'Fine', user_id: listener.userId }, null],
        [{ display_name: 'nul\u0000name' }, null],
        [{ display_name: 42 }, null],
      ];
      for (const [body, message] of cases) {
        const res = await patch(user, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
        if (message) expect(res.json().error.message).toBe(message);
      }
      expect(await profile(user)).toMatchObject({
        display_name: 'Steady Name',
        bio: 'Kept bio',
        avatar_url: null,
      });
    });

    it('keeps HTML in a name or bio as the text typed (the screens show it as text)', async () => {
      const user = await makeUser(ctx, 'listener', 'Plain');
      const name = '<img src=x onerror=alert(1)>';
      const bio = '<script>alert("bio")</script> & <b>bold</b>';
      expect((await patch(user, { display_name: name, bio })).statusCode).toBe(200);
      expect(await profile(user, artist)).toMatchObject({ display_name: name, bio });
    });

    it("lists a user's songs newest first as songs, a page at a time", async () => {
      const maker = await makeUser(ctx, 'artist', 'Paging Artist');
      const ids = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          await seedSong(ctx, maker.userId, `Page Song ${i}`, {
            at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
          }),
        );
      const all = await call('GET', `/api/profiles/${maker.userId}/songs`, listener);
      expect(all.statusCode).toBe(200);
      const body = all.json<ProfileSongs>();
      expect(body.songs.map((s) => s.id)).toEqual([...ids].reverse());
      expect(body.songs[0]).toMatchObject({ title: 'Page Song 2', artist_id: maker.userId });
      expect(body.next_cursor).toBeNull();

      const first = (
        await call('GET', `/api/profiles/${maker.userId}/songs?limit=2`, listener)
      ).json<ProfileSongs>();
      expect(first.songs.map((s) => s.id)).toEqual([ids[2], ids[1]]);
      expect(first.next_cursor).toEqual(expect.any(String));
      // The cursor names a place, not a row: deleting the row it came from ends nothing.
      await rows(ctx, sql`delete from songs where id = ${ids[1]!}`);
      const second = (
        await call(
          'GET',
          `/api/profiles/${maker.userId}/songs?limit=2&cursor=${first.next_cursor}`,
          listener,
        )
      ).json<ProfileSongs>();
      expect(second.songs.map((s) => s.id)).toEqual([ids[0]]);
      expect(second.next_cursor).toBeNull();

      // A listener's profile has no songs; a forged cursor is a 400.
      const none = await call('GET', `/api/profiles/${listener.userId}/songs`, artist);
      expect(none.json()).toEqual({ songs: [], next_cursor: null });
      const forged = await call(
        'GET',
        `/api/profiles/${maker.userId}/songs?cursor=99999999999999999999_x`,
        listener,
      );
      expect(forged.statusCode).toBe(400);
    });
  });

  describe('avatar', () => {
    it('stores an image re-encoded at {userId}/{timestamp}.webp in cover-art and deletes the one it replaces', async () => {
      const user = await makeUser(ctx, 'listener', 'Avatar Owner');
      const before = ctx.clock.now().getTime();
      const res = await avatarUpload(user, [
        {
          name: 'avatar',
          filename: 'me.png',
          contentType: 'image/png',
          data: await makePng(64, 48),
        },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const first = res.json<ProfileDto>().avatar_url!;
      const stamp = new RegExp(`^/media/cover-art/${user.userId}/(\\d+)\\.webp$`);
      const [, storedAt] = stamp.exec(first) ?? [];
      // The timestamp is the app clock's when the upload was saved (spec §7 Storage).
      expect(Number(storedAt)).toBeGreaterThanOrEqual(before);
      expect(Number(storedAt)).toBeLessThanOrEqual(ctx.clock.now().getTime());
      const served = await ctx.app.inject({ url: first });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
      const firstFile = path.join(ctx.env.dataDir, 'media', first.replace('/media/', ''));
      expect(fs.existsSync(firstFile)).toBe(true);

      const again = await avatarUpload(user, [
        { name: 'avatar', filename: 'me2.png', data: await makePng(32, 32) },
      ]);
      expect(again.statusCode, again.body).toBe(200);
      const second = again.json<ProfileDto>().avatar_url!;
      expect(second).not.toBe(first);
      expect(second).toMatch(stamp);
      expect((await profile(user)).avatar_url).toBe(second);
      // The old file went once the new one was saved.
      expect(fs.existsSync(firstFile)).toBe(false);
      expect((await ctx.app.inject({ url: second })).statusCode).toBe(200);
    });

    it('refuses anything that is not an image, storing nothing and keeping the avatar', async () => {
      const user = await makeUser(ctx, 'listener', 'Careful Uploader');
      const ok = await avatarUpload(user, [
        { name: 'avatar', filename: 'a.png', data: await makePng(16, 16) },
      ]);
      const kept = ok.json<ProfileDto>().avatar_url;
      const before = coverArtFiles();
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      const refused: Array<[Parameters<typeof multipart>[0], number, string]> = [
        [
          [
            {
              name: 'avatar',
              filename: 'x.png',
              contentType: 'image/png',
              data: Buffer.from('<html>hi</html>'),
            },
          ],
          415,
          'The avatar file must be an image',
        ],
        [
          [
            {
              name: 'avatar',
              filename: 'x.svg',
              contentType: 'image/svg+xml',
              data: Buffer.from(svg),
            },
          ],
          415,
          'The avatar file must be an image',
        ],
        [
          [
            {
              name: 'avatar',
              filename: 'x.wav',
              contentType: 'audio/wav',
              data: Buffer.from('RIFF....WAVEfmt '),
            },
          ],
          415,
          'The avatar file must be an image',
        ],
        [
          [{ name: 'avatar', filename: 'empty.png', data: Buffer.alloc(0) }],
          400,
          'Please select an image for your avatar',
        ],
        [[], 400, 'Please select an image for your avatar'],
        [
          [
            { name: 'avatar', filename: 'a.png', data: await makePng(16, 16) },
            { name: 'extra', filename: 'b.png', data: await makePng(16, 16) },
          ],
          400,
          'Unexpected file field "extra"',
        ],
        [
          [{ name: 'avatar', filename: 'big.png', data: Buffer.alloc(5 * 1024 * 1024 + 10, 1) }],
          413,
          'Avatar must be less than 5MB',
        ],
      ];
      for (const [parts, status, message] of refused) {
        const res = await avatarUpload(user, parts);
        expect(res.statusCode, `${message}: ${res.body}`).toBe(status);
        expect(res.json().error.message).toBe(message);
      }
      const json = await call('PUT', '/api/me/profile/avatar', user, { avatar: 'x' });
      expect(json.statusCode).toBe(415);
      expect(coverArtFiles()).toEqual(before);
      expect((await profile(user)).avatar_url).toBe(kept);
    });
  });

  describe('follows', () => {
    it('follows and unfollows idempotently, with the counts on both profiles', async () => {
      const fan = await makeUser(ctx, 'listener', 'Fan One');
      const star = await makeUser(ctx, 'artist', 'Star One');
      let res = await follow(star.userId, fan);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<FollowState>()).toEqual({ is_following: true, follower_count: 1 });
      res = await follow(star.userId, fan);
      expect(res.json<FollowState>()).toEqual({ is_following: true, follower_count: 1 });
      expect(await followRows(ctx, fan.userId)).toEqual([{ following_id: star.userId }]);

      expect(await profile(star, fan)).toMatchObject({
        is_following: true,
        follower_count: 1,
        following_count: 0,
      });
      expect(await profile(fan, star)).toMatchObject({
        is_following: false,
        follower_count: 0,
        following_count: 1,
      });
      // Someone else sees the count, not the fan's follow.
      expect(await profile(star, listener)).toMatchObject({
        is_following: false,
        follower_count: 1,
      });

      res = await unfollow(star.userId, fan);
      expect(res.json<FollowState>()).toEqual({ is_following: false, follower_count: 0 });
      res = await unfollow(star.userId, fan);
      expect(res.statusCode).toBe(200);
      expect(res.json<FollowState>()).toEqual({ is_following: false, follower_count: 0 });
      expect(await followRows(ctx, fan.userId)).toEqual([]);
      expect(await profile(star, fan)).toMatchObject({ is_following: false, follower_count: 0 });
    });

    it('refuses following oneself and unknown users, writing nothing', async () => {
      for (const res of [await follow(listener.userId), await unfollow(listener.userId)]) {
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'validation_failed',
          message: 'You cannot follow yourself',
        });
      }
      const ghost = crypto.randomUUID();
      for (const res of [await follow(ghost), await unfollow(ghost)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().error.message).toBe('Profile not found');
      }
      expect((await follow('not-a-uuid')).statusCode).toBe(400);
      expect(
        (await followRows(ctx, listener.userId)).filter((r) =>
          [listener.userId, ghost].includes(r.following_id),
        ),
      ).toEqual([]);
    });

    it('notifies the followed user once, linking to the follower', async () => {
      const fan = await makeUser(ctx, 'listener', 'Noisy Fan');
      const star = await makeUser(ctx, 'artist', 'Quiet Star');
      expect((await follow(star.userId, fan)).statusCode).toBe(200);
      expect((await follow(star.userId, fan)).statusCode).toBe(200);
      expect(await notificationsOf(ctx, star.userId)).toEqual([
        {
          type: 'new_follower',
          title: 'New follower',
          message: 'Noisy Fan started following you',
          link: `/profile/${fan.userId}`,
        },
      ]);
      // An unfollow and a follow again is a new follow, and a new notice.
      await unfollow(star.userId, fan);
      await follow(star.userId, fan);
      expect(await notificationsOf(ctx, star.userId)).toHaveLength(2);
      expect(await notificationsOf(ctx, fan.userId)).toEqual([]);
    });

    it('lists who one follows, newest first, with their counts, a page at a time', async () => {
      const fan = await makeUser(ctx, 'listener', 'List Fan');
      const a = await makeUser(ctx, 'artist', 'First Followed');
      const b = await makeUser(ctx, 'listener', 'Second Followed');
      const c = await makeUser(ctx, 'artist', 'Third Followed');
      await patch(a, { bio: 'Makes songs' });
      await seedSong(ctx, a.userId, 'By First');
      await seedSong(ctx, a.userId, 'By First Again');
      for (const u of [a, b, c]) expect((await follow(u.userId, fan)).statusCode).toBe(200);
      // Another follower of a, for its count.
      await follow(a.userId, listener);
      // Deterministic follow times, a oldest.
      for (const [i, u] of [a, b, c].entries())
        await rows(
          ctx,
          sql`update user_follows set created_at = ${new Date(Date.UTC(2024, 5, 1 + i)).toISOString()}::timestamptz
              where follower_id = ${fan.userId} and following_id = ${u.userId}`,
        );

      const list = await following(fan);
      expect(list.total).toBe(3);
      expect(list.next_cursor).toBeNull();
      expect(list.items.map((i) => i.user_id)).toEqual([c.userId, b.userId, a.userId]);
      expect(list.items[2]).toEqual({
        user_id: a.userId,
        display_name: 'First Followed',
        bio: 'Makes songs',
        avatar_url: null,
        follower_count: 2,
        song_count: 2,
        followed_at: '2024-06-01T00:00:00.000Z',
      });

      const page1 = await following(fan, '?limit=2');
      expect(page1.items.map((i) => i.user_id)).toEqual([c.userId, b.userId]);
      expect(page1.total).toBe(3);
      // Unfollowing the last card of a page does not end the list.
      await unfollow(b.userId, fan);
      const page2 = await following(fan, `?limit=2&cursor=${page1.next_cursor}`);
      expect(page2.items.map((i) => i.user_id)).toEqual([a.userId]);
      expect(page2.next_cursor).toBeNull();
      expect(page2.total).toBe(2);

      expect(await following(await makeUser(ctx, 'listener', 'Loner'))).toEqual({
        total: 0,
        items: [],
        next_cursor: null,
      });
    });
  });

  it('answers 401 to a caller who is not signed in, and writes nothing', async () => {
    const before = await rows(ctx, sql`select count(*)::int as n from user_follows`);
    for (const [method, url] of [
      ['GET', `/api/profiles/${artist.userId}`],
      ['GET', `/api/profiles/${artist.userId}/songs`],
      ['GET', '/api/me/profile'],
      ['PATCH', '/api/me/profile'],
      ['PUT', '/api/me/profile/avatar'],
      ['PUT', `/api/follows/${artist.userId}`],
      ['DELETE', `/api/follows/${artist.userId}`],
      ['GET', '/api/me/following'],
    ] as Array<[Method, string]>) {
      expect((await call(method, url, null)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await rows(ctx, sql`select count(*)::int as n from user_follows`)).toEqual(before);
  });
});
