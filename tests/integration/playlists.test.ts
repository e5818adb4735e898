import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  MyPlaylists,
  PlaylistDetail,
  PlaylistSummary,
} from '../../src/contracts/playlists.contract.ts';
import { playlistLimits, playlistMessages } from '../../src/core/validation/playlist.rules.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { makeUser, rows, type TestUser } from './songs-helpers.ts';

const SIGNED_AUDIO = /^\/media\/music\/seed-[\w-]+\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/;

async function seedSong(
  ctx: TestContext,
  title: string,
  extra: { cover?: string; source?: string } = {},
): Promise<string> {
  const [row] = await rows<{ id: string }>(
    ctx,
    sql`insert into songs (title, file_url, cover_art_url, source, external_id, duration_ms)
        values (${title}, ${`/media/music/seed-${crypto.randomUUID()}.wav`},
          ${extra.cover ?? null}, ${extra.source ?? null},
          ${extra.source ? crypto.randomUUID() : null}, 100000)
        returning id`,
  );
  return row!.id;
}

/** What the database holds: positions by song, in position order. */
async function trackRows(ctx: TestContext, playlistId: string) {
  return rows<{ song_id: string; position: number }>(
    ctx,
    sql`select song_id, position from playlist_tracks where playlist_id = ${playlistId}
        order by position, song_id`,
  );
}

async function counts(ctx: TestContext) {
  const [row] = await rows<{ playlists: number; tracks: number }>(
    ctx,
    sql`select (select count(*)::int from playlists) as playlists,
               (select count(*)::int from playlist_tracks) as tracks`,
  );
  return row!;
}

describe.each(dbKinds)('playlists on %s', (kind) => {
  const ctx = useTestApp(kind);
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    owner = await makeUser(ctx, 'listener', 'Playlist Owner');
    other = await makeUser(ctx, 'listener', 'Someone Else');
  });

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, user: TestUser | null, payload?: object) =>
    ctx.app.inject({ method, url, headers: user ? user.headers : {}, payload });

  async function create(
    body: Record<string, unknown>,
    user: TestUser = owner,
  ): Promise<PlaylistSummary> {
    const res = await call('POST', '/api/playlists', user, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<PlaylistSummary>();
  }
  const detail = async (id: string, user: TestUser = owner) => {
    const res = await call('GET', `/api/playlists/${id}`, user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlaylistDetail>();
  };
  const mine = async (user: TestUser = owner) => {
    const res = await call('GET', '/api/me/playlists', user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<MyPlaylists>().items;
  };
  const add = (id: string, songId: string, user: TestUser = owner) =>
    call('POST', `/api/playlists/${id}/tracks`, user, { song_id: songId });
  const removeTrack = (id: string, songId: string, user: TestUser = owner) =>
    call('DELETE', `/api/playlists/${id}/tracks/${encodeURIComponent(songId)}`, user);
  const move = (id: string, songId: string, index: unknown, user: TestUser = owner) =>
    call('PATCH', `/api/playlists/${id}/tracks/${encodeURIComponent(songId)}`, user, { index });
  const added = async (id: string, songId: string) => {
    const res = await add(id, songId);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ song_id: string; position: number }>().position;
  };

  it('creates a playlist: title trimmed, public by default, a blank description kept as null', async () => {
    const made = await create({ title: '  Road Trip  ', description: '   ' });
    expect(made).toMatchObject({
      user_id: owner.userId,
      title: 'Road Trip',
      description: null,
      is_public: true,
      cover_art_url: null,
      track_count: 0,
      updated_at: null,
    });
    expect(Date.parse(made.created_at)).not.toBeNaN();
    const privateOne = await create({
      title: 'Late Night',
      description: 'Quiet ones',
      is_public: false,
    });
    expect(privateOne).toMatchObject({ description: 'Quiet ones', is_public: false });
    const [row] = await rows<{ user_id: string; title: string }>(
      ctx,
      sql`select user_id, title from playlists where id = ${made.id}`,
    );
    expect(row).toEqual({ user_id: owner.userId, title: 'Road Trip' });
  });

  it('stores and returns an HTML/script title exactly as typed', async () => {
    const title = '<script>alert("x")</script><b>&amp;</b>';
    const made = await create({ title });
    expect(made.title).toBe(title);
    expect((await detail(made.id)).playlist.title).toBe(title);
    expect((await mine()).find((p) => p.id === made.id)?.title).toBe(title);
  });

  it('refuses bad titles and descriptions with the spec messages, writing nothing', async () => {
    const before = await counts(ctx);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '' }, playlistMessages.titleRequired],
      [{ title: '   ' }, playlistMessages.titleRequired],
      [{}, playlistMessages.titleRequired],
      [{ title: null }, playlistMessages.titleRequired],
      [{ title: 'x'.repeat(101) }, playlistMessages.titleTooLong],
      [{ title: 'Fine', description: 'd'.repeat(501) }, playlistMessages.descriptionTooLong],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/playlists', owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
    }
    expect(await counts(ctx)).toEqual(before);
    // The limits themselves are allowed.
    const longest = await create({ title: 't'.repeat(100), description: 'd'.repeat(500) });
    expect(longest.title).toHaveLength(100);
  });

  it('refuses mass-assignment of an owner or any unknown key, writing nothing', async () => {
    const before = await counts(ctx);
    for (const body of [
      { title: 'Stolen', user_id: other.userId },
      { title: 'Stolen', owner: other.userId },
      { title: 'Stolen', id: crypto.randomUUID() },
      { title: 'Stolen', track_count: 5 },
    ]) {
      const res = await call('POST', '/api/playlists', owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const made = await create({ title: 'Mine' });
    const res = await call('PATCH', `/api/playlists/${made.id}`, owner, {
      user_id: other.userId,
    });
    expect(res.statusCode).toBe(400);
    expect((await detail(made.id)).playlist.user_id).toBe(owner.userId);
    expect((await counts(ctx)).playlists).toBe(before.playlists + 1);
  });

  it("lists the caller's playlists newest first, with track counts and covers", async () => {
    const user = await makeUser(ctx, 'listener', 'Collector');
    const first = await create({ title: 'First' }, user);
    const second = await create({ title: 'Second' }, user);
    const third = await create({ title: 'Third' }, user);
    await create({ title: 'Not theirs' }, other);
    const plain = await seedSong(ctx, 'No Cover');
    const covered = await seedSong(ctx, 'Covered', { cover: '/media/cover-art/a.webp' });
    // The first track's cover (by position), whatever was added later.
    for (const song of [covered, plain])
      expect((await add(second.id, song, user)).statusCode).toBe(201);
    expect((await add(third.id, plain, user)).statusCode).toBe(201);
    // The playlist's own cover wins over its tracks'.
    await ctx.db.database.db.execute(
      sql`update playlists set cover_art_url = '/media/cover-art/own.webp' where id = ${first.id}`,
    );
    expect((await add(first.id, covered, user)).statusCode).toBe(201);

    const items = await mine(user);
    expect(items.map((p) => p.title)).toEqual(['Third', 'Second', 'First']);
    expect(items.map((p) => p.track_count)).toEqual([1, 2, 1]);
    expect(items.map((p) => p.cover_art_url)).toEqual([
      null,
      '/media/cover-art/a.webp',
      '/media/cover-art/own.webp',
    ]);
  });

  it('shows a private playlist only to its owner, a public one to anyone signed in', async () => {
    const song = await seedSong(ctx, 'Shown');
    const hidden = await create({ title: 'Hidden', is_public: false });
    const open = await create({ title: 'Open' });
    for (const p of [hidden, open]) expect((await add(p.id, song)).statusCode).toBe(201);

    const own = await detail(hidden.id);
    expect(own.playlist).toMatchObject({
      title: 'Hidden',
      is_owner: true,
      owner_display_name: 'Playlist Owner',
      track_count: 1,
    });
    expect(own.tracks.map((t) => t.song.id)).toEqual([song]);

    for (const id of [hidden.id, crypto.randomUUID()]) {
      const res = await call('GET', `/api/playlists/${id}`, other);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({ code: 'not_found', message: 'Playlist not found' });
    }
    const seen = await detail(open.id, other);
    expect(seen.playlist).toMatchObject({
      title: 'Open',
      is_owner: false,
      owner_display_name: 'Playlist Owner',
    });
    expect(seen.tracks.map((t) => t.song.id)).toEqual([song]);
    // Another user's playlists are not in the caller's list.
    expect((await mine(other)).map((p) => p.id)).not.toContain(open.id);
  });

  it('answers 401 to a caller who is not signed in, on every route, and writes nothing', async () => {
    const song = await seedSong(ctx, 'Anonymous');
    const open = await create({ title: 'Open to members' });
    const before = await counts(ctx);
    for (const [method, url, payload] of [
      ['GET', '/api/me/playlists'],
      ['POST', '/api/playlists', { title: 'Anon' }],
      ['GET', `/api/playlists/${open.id}`],
      ['PATCH', `/api/playlists/${open.id}`, { title: 'Anon' }],
      ['DELETE', `/api/playlists/${open.id}`],
      ['POST', `/api/playlists/${open.id}/tracks`, { song_id: song }],
      ['PATCH', `/api/playlists/${open.id}/tracks/${song}`, { index: 0 }],
      ['DELETE', `/api/playlists/${open.id}/tracks/${song}`],
    ] as Array<[Method, string, object?]>) {
      const res = await call(method, url, null, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await counts(ctx)).toEqual(before);
  });

  it("refuses every change to another user's playlist: 404 when private, 403 when public", async () => {
    const song = await seedSong(ctx, 'Guarded');
    const hidden = await create({ title: 'Guarded Private', is_public: false });
    const open = await create({ title: 'Guarded Public' });
    for (const p of [hidden, open]) expect((await add(p.id, song)).statusCode).toBe(201);
    const newSong = await seedSong(ctx, 'Intruder');
    const before = await counts(ctx);
    const details = [await detail(hidden.id), await detail(open.id)];
    const attempts = (id: string) =>
      [
        ['PATCH', `/api/playlists/${id}`, { title: 'Taken over', is_public: false }],
        ['DELETE', `/api/playlists/${id}`],
        ['POST', `/api/playlists/${id}/tracks`, { song_id: newSong }],
        ['PATCH', `/api/playlists/${id}/tracks/${song}`, { index: 0 }],
        ['DELETE', `/api/playlists/${id}/tracks/${song}`],
      ] as Array<[Method, string, object?]>;
    for (const [method, url, payload] of attempts(hidden.id)) {
      const res = await call(method, url, other, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toEqual({ code: 'not_found', message: 'Playlist not found' });
    }
    for (const [method, url, payload] of attempts(open.id)) {
      const res = await call(method, url, other, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toEqual({
        code: 'permission_denied',
        message: 'Only the owner can change this playlist',
      });
    }
    expect(await counts(ctx)).toEqual(before);
    expect([await detail(hidden.id), await detail(open.id)]).toEqual(details);
  });

  it('lets the owner rename, change or clear the description, and make it private', async () => {
    const made = await create({ title: 'Draft', description: 'Some words' });
    const res = await call('PATCH', `/api/playlists/${made.id}`, owner, {
      title: '  Final  ',
      is_public: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Final',
      description: 'Some words',
      is_public: false,
    });
    expect(res.json().updated_at).not.toBeNull();
    for (const description of ['  ', null]) {
      await call('PATCH', `/api/playlists/${made.id}`, owner, { description: 'Back' });
      const cleared = await call('PATCH', `/api/playlists/${made.id}`, owner, { description });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().description).toBeNull();
    }
    // Now private: another user cannot read it any more.
    expect((await call('GET', `/api/playlists/${made.id}`, other)).statusCode).toBe(404);

    for (const [body, message] of [
      [{ title: ' ' }, playlistMessages.titleRequired],
      [{ title: 'x'.repeat(101) }, playlistMessages.titleTooLong],
      [{ description: 'd'.repeat(501) }, playlistMessages.descriptionTooLong],
    ] as Array<[object, string]>) {
      const bad = await call('PATCH', `/api/playlists/${made.id}`, owner, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: 'validation_failed', message });
    }
    expect((await detail(made.id)).playlist).toMatchObject({ title: 'Final', description: null });
  });

  it('adds at highest position + 1 (0 when empty), also after a removal leaves a gap', async () => {
    const made = await create({ title: 'Positions' });
    const [a, b, c, d] = [
      await seedSong(ctx, 'A'),
      await seedSong(ctx, 'B'),
      await seedSong(ctx, 'C'),
      await seedSong(ctx, 'D'),
    ];
    expect([await added(made.id, a!), await added(made.id, b!), await added(made.id, c!)]).toEqual([
      0, 1, 2,
    ]);
    expect((await removeTrack(made.id, b!)).statusCode).toBe(204);
    // Removing what is not there is no error.
    expect((await removeTrack(made.id, b!)).statusCode).toBe(204);
    expect(await added(made.id, d!)).toBe(3);
    expect(await trackRows(ctx, made.id)).toEqual([
      { song_id: a, position: 0 },
      { song_id: c, position: 2 },
      { song_id: d, position: 3 },
    ]);
    // The gap is left for the highest + 1 rule; the order stays the order added.
    expect((await removeTrack(made.id, d!)).statusCode).toBe(204);
    expect(await added(made.id, b!)).toBe(3);

    const { playlist, tracks } = await detail(made.id);
    expect(playlist.track_count).toBe(3);
    expect(playlist.updated_at).not.toBeNull();
    expect(tracks.map((t) => [t.position, t.song.title])).toEqual([
      [0, 'A'],
      [2, 'C'],
      [3, 'B'],
    ]);
    expect(tracks[0]!.song.file_url).toMatch(SIGNED_AUDIO);
    expect(Date.parse(tracks[0]!.added_at)).not.toBeNaN();
  });

  it('answers a duplicate with 409 "Already in playlist" and the title, writing nothing', async () => {
    const title = 'Dupes <i>ok</i>';
    const made = await create({ title });
    const song = await seedSong(ctx, 'Once Only');
    expect(await added(made.id, song)).toBe(0);
    const res = await add(made.id, song.toUpperCase());
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'duplicate',
      message: 'Already in playlist',
      details: { playlist_title: title },
    });
    expect(await trackRows(ctx, made.id)).toEqual([{ song_id: song, position: 0 }]);
  });

  it('answers 404 song_not_found for a missing or external song, writing nothing', async () => {
    const made = await create({ title: 'Only uploads' });
    const external = await seedSong(ctx, 'From the catalogue', { source: 'itunes' });
    const before = await counts(ctx);
    for (const id of [crypto.randomUUID(), 'itunes:12345', 'not-a-song', external]) {
      const res = await add(made.id, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toEqual({ code: 'song_not_found', message: 'Song not found' });
    }
    expect(await counts(ctx)).toEqual(before);
    // A body that is not just a song id is refused before anything is read.
    for (const body of [{}, { song_id: '' }, { song_id: crypto.randomUUID(), position: 0 }]) {
      const res = await call('POST', `/api/playlists/${made.id}/tracks`, owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await call('DELETE', `/api/playlists/${made.id}/tracks/itunes:1`, owner)).statusCode,
    ).toBe(404);
    expect(await counts(ctx)).toEqual(before);
  });

  it(`refuses the track after ${playlistLimits.maxTracks.toLocaleString('en')} with 409 playlist_full`, async () => {
    const made = await create({ title: 'Full house' });
    // The limit's worth of songs and tracks in one statement, not 10,000 requests (one title
    // for all: the search indexes then cost least).
    await ctx.db.database.db.execute(sql`
      with made as (
        insert into songs (title, file_url, duration_ms)
        select 'Filler', '/media/music/bulk-' || n || '.wav', 1000
        from generate_series(1, ${playlistLimits.maxTracks}) n
        returning id
      )
      insert into playlist_tracks (playlist_id, song_id, position)
      select ${made.id}, id, (row_number() over (order by id) - 1)::int from made`);
    const last = await seedSong(ctx, 'One Too Many');
    const res = await add(made.id, last);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'duplicate',
      message: playlistMessages.full,
      details: { reason: 'playlist_full', max_tracks: 10_000 },
    });
    const [{ count }] = (await rows<{ count: number }>(
      ctx,
      sql`select count(*)::int as count from playlist_tracks where playlist_id = ${made.id}`,
    )) as [{ count: number }];
    expect(count).toBe(10_000);
    // A song already there is still named as such.
    const [inside] = await rows<{ song_id: string }>(
      ctx,
      sql`select song_id from playlist_tracks where playlist_id = ${made.id} and position = 5`,
    );
    expect((await add(made.id, inside!.song_id)).json().error.message).toBe('Already in playlist');
    expect((await mine()).find((p) => p.id === made.id)?.track_count).toBe(10_000);
    // One out, one in, at the end.
    expect((await removeTrack(made.id, inside!.song_id)).statusCode).toBe(204);
    expect(await added(made.id, last)).toBe(10_000);
  });

  it('moves a track to an index and rewrites positions densely 0..n-1', async () => {
    const made = await create({ title: 'Reorder' });
    const ids: string[] = [];
    for (const t of ['A', 'B', 'C', 'D', 'E']) {
      const id = await seedSong(ctx, t);
      ids.push(id);
      await added(made.id, id);
    }
    const [a, b, c, d, e] = ids as [string, string, string, string, string];
    // Leave a gap first: positions 0,1,3,4.
    expect((await removeTrack(made.id, c)).statusCode).toBe(204);

    const order = async (songId: string, index: number, expected: string[]) => {
      const res = await move(made.id, songId, index);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().song_ids).toEqual(expected);
      expect(await trackRows(ctx, made.id)).toEqual(
        expected.map((song_id, position) => ({ song_id, position })),
      );
      expect((await detail(made.id)).tracks.map((t) => t.song.id)).toEqual(expected);
    };
    await order(e, 0, [e, a, b, d]);
    await order(e, 2, [a, b, e, d]);
    await order(a, 3, [b, e, d, a]);
    // Past the end: clamped to the last place.
    await order(b, 99, [e, d, a, b]);
    await order(d, 1, [e, d, a, b]);
    // And adds still go after the end.
    expect(await added(made.id, c)).toBe(4);

    for (const songId of [crypto.randomUUID(), 'itunes:1']) {
      const res = await move(made.id, songId, 0);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({
        code: 'not_found',
        message: 'That track is not in this playlist',
      });
    }
    for (const index of [-1, 1.5, '1', null]) {
      const res = await move(made.id, a, index);
      expect(res.statusCode, String(index)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await trackRows(ctx, made.id)).map((r) => r.song_id)).toEqual([e, d, a, b, c]);
  });

  it('deletes a playlist with its tracks', async () => {
    const made = await create({ title: 'Short-lived' });
    const song = await seedSong(ctx, 'Goes too');
    await added(made.id, song);
    const res = await call('DELETE', `/api/playlists/${made.id}`, owner);
    expect(res.statusCode).toBe(204);
    expect(await trackRows(ctx, made.id)).toEqual([]);
    expect((await call('GET', `/api/playlists/${made.id}`, owner)).statusCode).toBe(404);
    expect((await mine()).map((p) => p.id)).not.toContain(made.id);
    expect((await call('DELETE', `/api/playlists/${made.id}`, owner)).statusCode).toBe(404);
    // The song itself stays.
    expect(await rows(ctx, sql`select id from songs where id = ${song}`)).toHaveLength(1);
  });

  it("removes a deleted song's tracks from every playlist", async () => {
    const made = await create({ title: 'Outlived' });
    const [gone, kept] = [await seedSong(ctx, 'Deleted'), await seedSong(ctx, 'Kept')];
    await added(made.id, gone);
    await added(made.id, kept);
    await ctx.db.database.db.execute(sql`delete from songs where id = ${gone}`);
    const { playlist, tracks } = await detail(made.id);
    expect(playlist.track_count).toBe(1);
    expect(tracks.map((t) => [t.position, t.song.id])).toEqual([[1, kept]]);
  });
});
