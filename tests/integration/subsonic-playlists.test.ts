// OpenSubsonic playlists (docs/decisions/0034): the library's playlists by the web's rules.
// Every change made through /rest shows in /api/playlists at once and the other way round;
// another user's private playlist is not there (70), another's public one is not theirs to
// change (50); a refusal (bad index, unknown song, a title the form refuses) writes nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp } from './auth-helpers.ts';
import { rows } from './songs-helpers.ts';
import { phoneAccount, type PhoneAccount as Account } from './subsonic-helpers.ts';

type Json = Record<string, unknown>;
type Envelope = Json & { status: string; error?: { code: number; message: string } };
type Entry = { id: string; title: string; duration: number };
type Playlist = Json & { id: string; entry?: Entry[] };
type Pairs = Array<[string, string]>;

describe.each(dbKinds)('Subsonic playlists on %s', (kind) => {
  const ctx = useTestApp(kind);
  let alice: Account;
  let bob: Account;
  let admin: Account;
  const s: string[] = [];
  let external = '';

  const account = () => phoneAccount(ctx.app);

  /** /rest/<method> as JSON, parameters possibly repeated; the envelope's inside. */
  async function rest(who: Account, method: string, pairs: Pairs | Json = []): Promise<Envelope> {
    const list = Array.isArray(pairs)
      ? pairs
      : Object.entries(pairs).map(([k, v]) => [k, String(v)] as [string, string]);
    const qs = new URLSearchParams([
      ['u', who.email],
      ['p', who.password],
      ['v', '1.16.1'],
      ['c', 'test'],
      ['f', 'json'],
      ...list,
    ]);
    const res = await ctx.app.inject({ url: `/rest/${method}?${qs}`, remoteAddress: freshIp() });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
  }
  const ok = async (who: Account, method: string, pairs: Pairs | Json = []) => {
    const env = await rest(who, method, pairs);
    expect(env.status, JSON.stringify(env.error)).toBe('ok');
    return env;
  };
  const failsWith = async (code: number, who: Account, method: string, pairs: Pairs | Json) => {
    const env = await rest(who, method, pairs);
    expect(env, `${method} ${JSON.stringify(pairs)}`).toMatchObject({
      status: 'failed',
      error: { code },
    });
    return env.error!.message;
  };
  const web = (who: Account, url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: who.headers });
  const webTracks = async (who: Account, id: string) => {
    const res = await web(who, `/api/playlists/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      playlist: { title: string; description: string | null; is_public: boolean };
      tracks: Array<{ song: { id: string } }>;
    }>();
  };
  /** Every playlist row and track, to show a refusal wrote nothing. */
  const snapshot = async () =>
    rows<Json>(
      ctx,
      sql`select p.id, p.title, p.description, p.is_public, p.updated_at,
            coalesce((select string_agg(t.song_id::text || '@' || t.position, ',' order by t.position)
              from playlist_tracks t where t.playlist_id = p.id), '') as tracks
          from playlists p order by p.id`,
    );

  beforeAll(async () => {
    alice = await account();
    bob = await account();
    admin = await account();
    await ctx.db.database.db.execute(
      sql`insert into user_roles (user_id, role) values (${admin.userId}, 'admin')`,
    );
    for (let i = 0; i < 5; i++) {
      const [row] = await rows<{ id: string }>(
        ctx,
        sql`insert into songs (artist_id, artist, title, genre, file_url, file_key, duration_ms, created_at)
            values (${bob.userId}, 'Bob', ${`Song ${i}`}, 'Rock', ${`/media/music/s${i}.mp3`},
              ${`music/s${i}.mp3`}, ${(i + 1) * 60000}, '2024-01-01T00:00:00Z'::timestamptz + ${i} * interval '1 day')
            returning id`,
      );
      s.push(row!.id);
    }
    const [ext] = await rows<{ id: string }>(
      ctx,
      sql`insert into songs (artist, title, preview_url, source, external_id)
          values ('Far', 'Elsewhere', 'https://example.test/p.m4a', 'itunes', 'e1') returning id`,
    );
    external = ext!.id;
  });

  it('creates a playlist with songs in order, seen the same in the web API', async () => {
    const env = await ok(alice, 'createPlaylist', [
      ['name', '  Road trip  '],
      ['songId', s[2]!],
      ['songId', s[0]!],
      ['songId', s[2]!.toUpperCase()],
      ['songId', s[1]!],
    ]);
    const playlist = env.playlist as Playlist;
    // Trimmed as the web form trims; a song kept once, at its first place.
    expect(playlist).toMatchObject({
      name: 'Road trip',
      owner: alice.email,
      public: true,
      songCount: 3,
      duration: 180 + 60 + 120,
      readonly: false,
      coverArt: s[2],
    });
    expect(playlist.entry!.map((e) => e.id)).toEqual([s[2], s[0], s[1]]);
    expect(playlist.entry![0]).toMatchObject({ title: 'Song 2', isDir: false, type: 'music' });

    const detail = await webTracks(alice, playlist.id);
    expect(detail.playlist).toMatchObject({ title: 'Road trip', is_public: true });
    expect(detail.tracks.map((t) => t.song.id)).toEqual([s[2], s[0], s[1]]);
    const mine = await web(alice, '/api/me/playlists');
    expect(mine.json<{ items: Array<{ id: string }> }>().items.map((p) => p.id)).toContain(
      playlist.id,
    );

    const got = await ok(alice, 'getPlaylist', { id: playlist.id });
    expect((got.playlist as Playlist).entry!.map((e) => e.id)).toEqual([s[2], s[0], s[1]]);
    expect(got.playlist).toMatchObject({
      created: expect.any(String),
      changed: expect.any(String),
    });
  });

  it('updates name, comment, public, removes by index and adds, all at once', async () => {
    const created = (
      await ok(alice, 'createPlaylist', [
        ['name', 'Edit me'],
        ['songId', s[0]!],
        ['songId', s[1]!],
        ['songId', s[2]!],
      ])
    ).playlist as Playlist;
    await ok(alice, 'updatePlaylist', [
      ['playlistId', created.id],
      ['name', 'Edited'],
      ['comment', 'For the morning'],
      ['public', 'false'],
      ['songIndexToRemove', '0'],
      ['songIndexToRemove', '2'],
      ['songIdToAdd', s[3]!],
      ['songIdToAdd', s[4]!],
    ]);
    const detail = await webTracks(alice, created.id);
    expect(detail.playlist).toMatchObject({
      title: 'Edited',
      description: 'For the morning',
      is_public: false,
    });
    expect(detail.tracks.map((t) => t.song.id)).toEqual([s[1], s[3], s[4]]);
    const got = (await ok(alice, 'getPlaylist', { id: created.id })).playlist as Playlist;
    expect(got).toMatchObject({ name: 'Edited', comment: 'For the morning', public: false });

    // A change in the web shows in /rest at once.
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/playlists/${created.id}`,
      headers: alice.headers,
      payload: { title: 'From the web' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await ok(alice, 'getPlaylist', { id: created.id })).playlist).toMatchObject({
      name: 'From the web',
    });

    // createPlaylist with playlistId replaces the songs (owner only).
    await ok(alice, 'createPlaylist', [
      ['playlistId', created.id],
      ['songId', s[4]!],
      ['songId', s[0]!],
    ]);
    expect((await webTracks(alice, created.id)).tracks.map((t) => t.song.id)).toEqual([s[4], s[0]]);
    expect((await webTracks(alice, created.id)).playlist.title).toBe('From the web');
  });

  it('refuses bad indexes, unknown songs, duplicates and bad titles, writing nothing', async () => {
    const created = (
      await ok(alice, 'createPlaylist', [
        ['name', 'Guarded'],
        ['songId', s[0]!],
        ['songId', s[1]!],
      ])
    ).playlist as Playlist;
    const before = await snapshot();
    const id = created.id;
    // An index of no track, even beside a valid change: nothing changes.
    await failsWith(0, alice, 'updatePlaylist', [
      ['playlistId', id],
      ['name', 'Renamed'],
      ['songIndexToRemove', '0'],
      ['songIndexToRemove', '2'],
    ]);
    await failsWith(0, alice, 'updatePlaylist', [
      ['playlistId', id],
      ['songIndexToRemove', '-1'],
    ]);
    await failsWith(0, alice, 'updatePlaylist', [
      ['playlistId', id],
      ['songIndexToRemove', 'x'],
    ]);
    // Unknown songs: a uuid of nothing, an external track, a path.
    for (const bad of [crypto.randomUUID(), external, '../../etc/passwd'])
      await failsWith(70, alice, 'updatePlaylist', [
        ['playlistId', id],
        ['songIdToAdd', s[2]!],
        ['songIdToAdd', bad],
      ]);
    // A song already there, as the add-to-playlist dialog refuses it.
    expect(
      await failsWith(0, alice, 'updatePlaylist', [
        ['playlistId', id],
        ['songIdToAdd', s[0]!],
      ]),
    ).toBe('This song is already in "Guarded"');
    // The form's title and description rules, with its messages.
    expect(
      await failsWith(0, alice, 'updatePlaylist', [
        ['playlistId', id],
        ['name', 'x'.repeat(101)],
      ]),
    ).toBe('Title must be less than 100 characters');
    expect(
      await failsWith(0, alice, 'updatePlaylist', [
        ['playlistId', id],
        ['name', '   '],
      ]),
    ).toBe('Title is required');
    expect(
      await failsWith(0, alice, 'updatePlaylist', [
        ['playlistId', id],
        ['comment', 'c'.repeat(501)],
      ]),
    ).toBe('Description must be less than 500 characters');
    await failsWith(0, alice, 'updatePlaylist', [
      ['playlistId', id],
      ['public', 'maybe'],
    ]);
    // Nothing asked, nothing written.
    await ok(alice, 'updatePlaylist', [['playlistId', id]]);
    // Replacing the songs with an unknown one: the old songs stay.
    await failsWith(70, alice, 'createPlaylist', [
      ['playlistId', id],
      ['songId', s[3]!],
      ['songId', crypto.randomUUID()],
    ]);
    expect(await snapshot()).toEqual(before);

    // No playlist is made from unknown songs or a refused title.
    await failsWith(70, alice, 'createPlaylist', [
      ['name', 'Nope'],
      ['songId', s[0]!],
      ['songId', external],
    ]);
    await failsWith(0, alice, 'createPlaylist', [['name', 'y'.repeat(101)]]);
    await failsWith(10, alice, 'createPlaylist', [['songId', s[0]!]]);
    await failsWith(10, alice, 'updatePlaylist', []);
    await failsWith(70, alice, 'getPlaylist', { id: '../../etc/passwd' });
    await failsWith(70, alice, 'getPlaylist', { id: crypto.randomUUID() });
    await failsWith(70, alice, 'deletePlaylist', { id: '../../etc/passwd' });
    expect(await snapshot()).toEqual(before);
  });

  it("hides another user's private playlist (70) and refuses changes to a public one (50)", async () => {
    const secret = (
      await ok(alice, 'createPlaylist', [
        ['name', 'Secret'],
        ['songId', s[0]!],
      ])
    ).playlist as Playlist;
    await ok(alice, 'updatePlaylist', { playlistId: secret.id, public: 'false' });
    const open = (
      await ok(alice, 'createPlaylist', [
        ['name', 'Open'],
        ['songId', s[1]!],
      ])
    ).playlist as Playlist;
    const before = await snapshot();

    await failsWith(70, bob, 'getPlaylist', { id: secret.id });
    await failsWith(70, bob, 'updatePlaylist', { playlistId: secret.id, name: 'Mine now' });
    await failsWith(70, bob, 'updatePlaylist', { playlistId: secret.id, songIndexToRemove: '0' });
    await failsWith(70, bob, 'deletePlaylist', { id: secret.id });
    await failsWith(70, bob, 'createPlaylist', [
      ['playlistId', secret.id],
      ['songId', s[2]!],
    ]);

    // A public playlist is readable by anyone, changeable by its owner only.
    const seen = (await ok(bob, 'getPlaylist', { id: open.id })).playlist as Playlist;
    expect(seen).toMatchObject({ name: 'Open', owner: alice.email, readonly: true });
    await failsWith(50, bob, 'updatePlaylist', { playlistId: open.id, name: 'Mine now' });
    await failsWith(50, bob, 'updatePlaylist', { playlistId: open.id, songIdToAdd: s[3]! });
    await failsWith(50, bob, 'deletePlaylist', { id: open.id });
    await failsWith(50, bob, 'createPlaylist', [
      ['playlistId', open.id],
      ['songId', s[2]!],
    ]);
    expect(await snapshot()).toEqual(before);

    // getPlaylists: own playlists and everyone's public ones, never another's private one.
    const listed = (await ok(bob, 'getPlaylists')).playlists as { playlist: Playlist[] };
    const ids = listed.playlist.map((p) => p.id);
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(secret.id);
    const alices = (await ok(alice, 'getPlaylists')).playlists as { playlist: Playlist[] };
    expect(alices.playlist.map((p) => p.id)).toEqual(expect.arrayContaining([open.id, secret.id]));
    expect(alices.playlist.find((p) => p.id === secret.id)).toMatchObject({
      public: false,
      songCount: 1,
      duration: 60,
      coverArt: s[0],
    });

    // Another user's list: a listener may not ask (50); an admin sees their public ones only.
    await failsWith(50, bob, 'getPlaylists', { username: alice.email });
    const asAdmin = (await ok(admin, 'getPlaylists', { username: alice.email })).playlists as {
      playlist: Playlist[];
    };
    const adminIds = asAdmin.playlist.map((p) => p.id);
    expect(adminIds).toContain(open.id);
    expect(adminIds).not.toContain(secret.id);
    expect(asAdmin.playlist.every((p) => p.owner === alice.email)).toBe(true);
    await failsWith(70, admin, 'getPlaylists', { username: 'nobody@example.com' });
    // Asking for one's own name is the plain list.
    expect(
      (
        (await ok(bob, 'getPlaylists', { username: bob.email.toUpperCase() })).playlists as {
          playlist: Playlist[];
        }
      ).playlist.map((p) => p.id),
    ).toEqual(ids);

    // The owner deletes; the web agrees at once.
    await ok(alice, 'deletePlaylist', { id: open.id });
    expect((await web(alice, `/api/playlists/${open.id}`)).statusCode).toBe(404);
    await failsWith(70, alice, 'getPlaylist', { id: open.id });
  });

  it('answers XML too, well-formed, with entries as repeated elements', async () => {
    const created = (
      await ok(alice, 'createPlaylist', [
        ['name', 'A <b>&"quoted"</b>'],
        ['songId', s[0]!],
        ['songId', s[1]!],
      ])
    ).playlist as Playlist;
    const qs = new URLSearchParams({ u: alice.email, p: alice.password, id: created.id });
    const res = await ctx.app.inject({
      url: `/rest/getPlaylist.view?${qs}`,
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('name="A &lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt;"');
    expect(res.body.match(/<entry /g)).toHaveLength(2);
  });
});
