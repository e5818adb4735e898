// A whole session of a real OpenSubsonic client (the subsonic-api package) against Canto
// listening on a port: an app password made through /api/me/subsonic/passwords, token and
// password sign-in, browsing down from the artists to a song, search; then streaming a range,
// stars, scrobbles, playlists, the play queue, podcasts and bookmarks.
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import SubsonicAPI from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseEnvelope } from '../helpers/subsonic-shapes.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { signUp } from './auth-helpers.ts';
import { rows } from './songs-helpers.ts';

/** The session's steps beyond sign-in, browsing and search. */
const STEPS = [
  'streams a range of a song through the URL the client builds',
  'stars a song, an album and an artist, and reads them back with getStarred2',
  'scrobbles a play (submission with its time) and a now-playing',
  'creates, reads, updates and deletes a playlist',
  'saves the play queue and reads it back',
  'lists the podcasts and the newest episodes',
  'creates, lists and deletes a bookmark',
];

const AUDIO = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 17 + 3) & 0xff));

type Recorded = { url: URL };

describe.each(dbKinds)('a Subsonic client session on %s', (kind) => {
  const ctx = useTestApp(kind);
  let base = '';
  let email = '';
  let secret = '';
  let artistId = '';
  const songIds: string[] = [];
  let podcastId = '';
  let episodeId = '';
  /** The requests the clients sent, last first. */
  const sent: Recorded[] = [];

  /** fetch as the client calls it, recording each request. */
  const recordingFetch: typeof fetch = async (input, init) => {
    sent.unshift({ url: new URL(String(input)) });
    return fetch(input, init);
  };
  /** The same client signing in with the password itself (`p=enc:<hex>`), not a token. */
  const passwordFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    url.searchParams.delete('t');
    url.searchParams.delete('s');
    url.searchParams.set('p', `enc:${Buffer.from(secret).toString('hex')}`);
    return recordingFetch(url.toString(), init);
  };

  let api: SubsonicAPI;
  let withPassword: SubsonicAPI;

  beforeAll(async () => {
    // An artist's uploads: two songs of 2023 and one of 2024, one stored file.
    const [artist] = await rows<{ id: string }>(
      ctx,
      sql`insert into users (email, password_hash) values ('nightjar@client.test', 'x') returning id`,
    );
    artistId = artist!.id;
    const titles: Array<[string, string, string]> = [
      ['Low Orbit', 'Electronic', '2023-02-01T10:00:00Z'],
      ['High Orbit', 'Electronic', '2023-05-01T10:00:00Z'],
      ['Re-entry', 'Ambient', '2024-01-01T10:00:00Z'],
    ];
    for (const [title, genre, created] of titles) {
      const [row] = await rows<{ id: string }>(
        ctx,
        sql`insert into songs (artist_id, artist, title, genre, file_url, file_key, duration_ms, created_at)
            values (${artistId}, 'Nightjar', ${title}, ${genre}, 'pending', 'pending', 240000,
              ${created}::timestamptz) returning id`,
      );
      const id = row!.id;
      await ctx.db.database.db.execute(
        sql`update songs set file_url = ${`/media/music/${id}.wav`},
            file_key = ${`music/${id}.wav`} where id = ${id}`,
      );
      await ctx.storage.put('music', `${id}.wav`, Readable.from([AUDIO]), {
        contentType: 'audio/wav',
        maxBytes: 1e7,
      });
      songIds.push(id);
    }
    const [show] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcasts (creator_id, title, description) values (${artistId},
          'Night Shift', 'Late talks') returning id`,
    );
    podcastId = show!.id;
    const [episode] = await rows<{ id: string }>(
      ctx,
      sql`insert into podcast_episodes (podcast_id, title, audio_url, audio_key, duration_ms)
          values (${podcastId}, 'First shift', '/media/podcasts/x.wav', 'podcasts/x.wav', 600000)
          returning id`,
    );
    episodeId = episode!.id;

    // The listener makes an app password, as Profile → Security does.
    const { res, payload } = await signUp(ctx.app, { display_name: 'Client Listener' });
    expect(res.statusCode, res.body).toBe(201);
    email = payload.email;
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/subsonic/passwords',
      headers: { authorization: `Bearer ${res.json<{ access_token: string }>().access_token}` },
      payload: { name: 'Test client' },
    });
    expect(made.statusCode, made.body).toBe(201);
    secret = made.json<{ password: string }>().password;

    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    api = new SubsonicAPI({
      url: base,
      auth: { username: email, password: secret },
      fetch: recordingFetch,
    });
    withPassword = new SubsonicAPI({
      url: base,
      auth: { username: email, password: secret },
      fetch: passwordFetch,
    });
  });

  /** The answer checked for status ok and its OpenSubsonic shape. */
  function ok<T extends { status: string }>(method: string, answer: T): T {
    expect(answer, `${method}: ${JSON.stringify(answer)}`).toMatchObject({ status: 'ok' });
    parseEnvelope(method, JSON.parse(JSON.stringify(answer)));
    return answer;
  }

  describe('implemented methods', () => {
    it('pings with a token and salt, and with the password itself', async () => {
      ok('ping', await api.ping());
      const tokenRequest = sent[0]!.url.searchParams;
      expect(tokenRequest.get('u')).toBe(email);
      expect(tokenRequest.get('t')).toMatch(/^[0-9a-f]{32}$/);
      expect(tokenRequest.get('s')).toBeTruthy();
      expect(tokenRequest.get('p')).toBeNull();

      ok('ping', await withPassword.ping());
      const passwordRequest = sent[0]!.url.searchParams;
      expect(passwordRequest.get('p')).toMatch(/^enc:[0-9a-f]+$/);
      expect(passwordRequest.get('t')).toBeNull();

      // The plain password as well, and a wrong one refused with 40.
      const plain = await fetch(
        `${base}/rest/ping.view?${new URLSearchParams({ u: email, p: secret, v: '1.16.1', c: 't', f: 'json' })}`,
      );
      expect((await plain.json())['subsonic-response'].status).toBe('ok');
      const wrong = new SubsonicAPI({ url: base, auth: { username: email, password: 'nope' } });
      expect(await wrong.ping()).toMatchObject({ status: 'failed', error: { code: 40 } });
    });

    it('reads the server: extensions, license, music folders, user', async () => {
      const extensions = ok('getOpenSubsonicExtensions', await api.getOpenSubsonicExtensions());
      expect(extensions.openSubsonicExtensions.map((e) => e.name)).toEqual(
        expect.arrayContaining(['apiKeyAuthentication', 'formPost']),
      );
      expect(ok('getLicense', await api.getLicense()).license.valid).toBe(true);
      expect(ok('getMusicFolders', await api.getMusicFolders()).musicFolders.musicFolder).toEqual([
        { id: 1, name: 'Music' },
      ]);
      expect(ok('getUser', await withPassword.getUser({ username: email })).user).toMatchObject({
        username: email,
        streamRole: true,
      });
    });

    it('browses getArtists → getArtist → getAlbum → getSong', async () => {
      const artists = ok('getArtists', await api.getArtists());
      const entry = artists.artists.index
        ?.flatMap((i) => i.artist ?? [])
        .find((a) => a.name === 'Nightjar');
      expect(entry).toMatchObject({ id: `ar-${artistId}`, albumCount: 2 });

      const artist = ok('getArtist', await api.getArtist({ id: entry!.id }));
      const albums = artist.artist.album ?? [];
      expect(albums.map((a) => a.name)).toEqual(['Nightjar · 2023', 'Nightjar · 2024']);

      const album = ok('getAlbum', await withPassword.getAlbum({ id: albums[0]!.id }));
      const songs = album.album.song ?? [];
      expect(songs.map((s) => s.title)).toEqual(['Low Orbit', 'High Orbit']);
      expect(album.album.songCount).toBe(2);

      const song = ok('getSong', await api.getSong({ id: songs[1]!.id }));
      expect(song.song).toMatchObject({
        id: songIds[1],
        title: 'High Orbit',
        albumId: albums[0]!.id,
        artistId: `ar-${artistId}`,
        contentType: 'audio/wav',
        duration: 240,
      });
    });

    it('searches with search3, and lists genres and an album list', async () => {
      const found = ok('search3', await api.search3({ query: 'orbit' }));
      expect(found.searchResult3.song?.map((s) => s.title)).toEqual(['High Orbit', 'Low Orbit']);
      expect(found.searchResult3.artist ?? []).toEqual([]);
      const everything = ok('search3', await api.search3({ query: '' }));
      expect(everything.searchResult3.song?.map((s) => s.id).sort()).toEqual([...songIds].sort());
      const genres = ok('getGenres', await api.getGenres());
      expect(genres.genres.genre?.map((g) => g.value)).toEqual(['Ambient', 'Electronic']);
      const newest = ok('getAlbumList2', await api.getAlbumList2({ type: 'newest' }));
      expect(newest.albumList2.album?.map((a) => a.name)).toEqual([
        'Nightjar · 2024',
        'Nightjar · 2023',
      ]);
    });
  });

  describe('playing, starring, scrobbling, playlists, queue, podcasts', () => {
    it(STEPS[0]!, async () => {
      const full = await api.stream({ id: songIds[0]! });
      expect(full.status).toBe(200);
      expect(full.headers.get('content-type'), await full.clone().text()).toMatch(/^audio\//);
      expect(Buffer.from(await full.arrayBuffer()).equals(AUDIO)).toBe(true);
      // The URL the client built, fetched again with a Range as players seek.
      const url = sent[0]!.url;
      expect(url.pathname).toBe('/rest/stream.view');
      const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${AUDIO.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(AUDIO.subarray(100, 200))).toBe(true);
    });

    it(STEPS[1]!, async () => {
      const albumId = `al-${artistId}-2024`;
      ok('star', await api.star({ id: songIds[0]!, albumId, artistId: `ar-${artistId}` }));
      const starred = ok('getStarred2', await api.getStarred2()).starred2;
      // Canto's albums are derived: starring one likes each of its songs (Re-entry, 2024).
      expect(starred.song?.map((s) => s.id).sort()).toEqual([songIds[0], songIds[2]].sort());
      expect(starred.album?.map((a) => a.id)).toContain(albumId);
      expect(starred.artist?.map((a) => a.id)).toEqual([`ar-${artistId}`]);
      expect(ok('getSong', await api.getSong({ id: songIds[0]! })).song.starred).toBeTruthy();
      ok('unstar', await api.unstar({ id: songIds[0]!, artistId: `ar-${artistId}` }));
      const between = ok('getStarred2', await api.getStarred2()).starred2;
      expect(between.song?.map((s) => s.id)).toEqual([songIds[2]]);
      ok('unstar', await api.unstar({ albumId }));
      const after = ok('getStarred2', await api.getStarred2()).starred2;
      expect(after.song ?? []).toEqual([]);
      expect(after.album ?? []).toEqual([]);
      expect(after.artist ?? []).toEqual([]);
    });

    it(STEPS[2]!, async () => {
      ok('scrobble', await api.scrobble({ id: songIds[2]!, submission: false }));
      const playing = ok('getNowPlaying', await api.getNowPlaying()).nowPlaying;
      expect(playing.entry?.map((e) => [e.id, e.username])).toContainEqual([songIds[2], email]);
      ok(
        'scrobble',
        await api.scrobble({ id: songIds[2]!, submission: true, time: Date.now() - 60_000 }),
      );
      const recent = ok('getAlbumList2', await api.getAlbumList2({ type: 'recent' }));
      expect(recent.albumList2.album?.map((a) => a.id)).toContain(`al-${artistId}-2024`);
    });

    it(STEPS[3]!, async () => {
      const created = ok(
        'createPlaylist',
        await api.createPlaylist({ name: 'Orbits', songId: [songIds[0]!, songIds[1]!] }),
      ).playlist;
      expect(created).toMatchObject({ name: 'Orbits', songCount: 2, owner: email });
      const read = ok('getPlaylist', await api.getPlaylist({ id: created.id })).playlist;
      expect(read.entry?.map((e) => e.id)).toEqual([songIds[0], songIds[1]]);
      ok(
        'updatePlaylist',
        await api.updatePlaylist({
          playlistId: created.id,
          name: 'Orbits and landing',
          comment: 'Whole flight',
          songIdToAdd: [songIds[2]!],
          songIndexToRemove: [0],
        }),
      );
      const updated = ok('getPlaylist', await api.getPlaylist({ id: created.id })).playlist;
      expect(updated).toMatchObject({ name: 'Orbits and landing', comment: 'Whole flight' });
      expect(updated.entry?.map((e) => e.id)).toEqual([songIds[1], songIds[2]]);
      const all = ok('getPlaylists', await api.getPlaylists()).playlists;
      expect(all.playlist?.map((p) => p.id)).toContain(created.id);
      ok('deletePlaylist', await api.deletePlaylist({ id: created.id }));
      expect(await api.getPlaylist({ id: created.id })).toMatchObject({
        status: 'failed',
        error: { code: 70 },
      });
    });

    it(STEPS[4]!, async () => {
      ok(
        'savePlayQueue',
        await api.savePlayQueue({
          id: [songIds[2]!, songIds[0]!],
          current: songIds[0]!,
          position: 5000,
        }),
      );
      const queue = ok('getPlayQueue', await withPassword.getPlayQueue()).playQueue!;
      expect(queue).toMatchObject({ current: songIds[0], position: 5000, username: email });
      expect(queue.entry?.map((e) => e.id)).toEqual([songIds[2], songIds[0]]);
    });

    it(STEPS[5]!, async () => {
      const all = ok('getPodcasts', await api.getPodcasts({ includeEpisodes: true })).podcasts;
      const channel = all.channel?.find((c) => c.id === `pc-${podcastId}`);
      expect(channel).toMatchObject({ title: 'Night Shift' });
      expect(channel?.episode?.map((e) => e.id)).toEqual([`ep-${episodeId}`]);
      const newest = ok('getNewestPodcasts', await api.getNewestPodcasts()).newestPodcasts;
      expect(newest.episode?.map((e) => [e.id, e.channelId])).toContainEqual([
        `ep-${episodeId}`,
        `pc-${podcastId}`,
      ]);
    });

    it(STEPS[6]!, async () => {
      const id = `ep-${episodeId}`;
      ok('createBookmark', await api.createBookmark({ id, position: 61_000, comment: 'Halfway' }));
      const marks = ok('getBookmarks', await api.getBookmarks()).bookmarks;
      expect(marks.bookmark?.map((b) => [b.entry.id, b.position, b.username])).toEqual([
        [id, 61_000, email],
      ]);
      ok('deleteBookmark', await api.deleteBookmark({ id }));
      expect(ok('getBookmarks', await api.getBookmarks()).bookmarks.bookmark ?? []).toEqual([]);
    });
  });
});
