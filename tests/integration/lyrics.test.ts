// Songs' lyrics (docs/decisions/0037): plain text or LRC set on upload or edit by the song's
// artist only, LRC times checked against the duration measured at upload; served as lines on
// GET /api/songs/:id/lyrics, flagged in the song's DTO, and to Subsonic apps.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp } from './auth-helpers.ts';
import { makeUser, makeWav, multipart, rows, uploadSong, type TestUser } from './songs-helpers.ts';

const LRC = '[ti:Ten Seconds]\n[00:01.00]First line\n[00:04.50][00:08.00]Chorus\n[00:06.25]Middle';
const PLAIN = 'Just words\n\nNo times at all';

describe.each(dbKinds)('song lyrics on %s', (kind) => {
  const ctx = useTestApp(kind);
  let artist: TestUser;
  let other: TestUser;
  let listener: TestUser;
  let songId = '';

  const upload = (lyrics: string, title = 'With lyrics') => {
    const { headers, payload } = multipart([
      { name: 'title', value: title },
      { name: 'lyrics', value: lyrics },
      { name: 'file', filename: 'a.wav', contentType: 'audio/wav', data: makeWav(10) },
    ]);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
  };
  const edit = (id: string, body: Record<string, unknown>, user = artist) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/songs/${id}`,
      headers: user.headers,
      payload: body,
    });
  const lyricsOf = (id: string, user = listener) =>
    ctx.app.inject({ method: 'GET', url: `/api/songs/${id}/lyrics`, headers: user.headers });
  const songCount = async () =>
    (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from songs`))[0]!.n;
  const storedText = async (id: string) =>
    (await rows<{ text: string }>(ctx, sql`select text from song_lyrics where song_id = ${id}`))[0]
      ?.text ?? null;
  const refusal = (res: { statusCode: number; json: () => unknown; body: string }) => {
    expect(res.statusCode, res.body).toBe(400);
    return (res.json() as { error: { code: string; message: string } }).error;
  };

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Lyric Artist');
    other = await makeUser(ctx, 'artist', 'Other Artist');
    listener = await makeUser(ctx, 'listener', 'Lyric Listener');
    songId = (await uploadSong(ctx, artist, { title: 'Ten Seconds', audio: makeWav(10) })).id;
  });

  it('sets LRC lyrics on upload and serves them as timed lines, in time order', async () => {
    const res = await upload(LRC);
    expect(res.statusCode, res.body).toBe(201);
    const song = res.json<{ id: string; has_lyrics: boolean }>();
    expect(song.has_lyrics).toBe(true);
    const got = await lyricsOf(song.id);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toEqual({
      synced: true,
      lines: [
        { time_ms: 1000, text: 'First line' },
        { time_ms: 4500, text: 'Chorus' },
        { time_ms: 6250, text: 'Middle' },
        { time_ms: 8000, text: 'Chorus' },
      ],
      text: LRC,
    });
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `/api/songs/${song.id}`,
      headers: listener.headers,
    });
    expect(listed.json().has_lyrics).toBe(true);
  });

  it('takes plain lyrics on upload as unsynced lines', async () => {
    const res = await upload(PLAIN, 'Plain one');
    expect(res.statusCode, res.body).toBe(201);
    const got = await lyricsOf(res.json<{ id: string }>().id);
    expect(got.json()).toEqual({
      synced: false,
      lines: [
        { time_ms: null, text: 'Just words' },
        { time_ms: null, text: '' },
        { time_ms: null, text: 'No times at all' },
      ],
      text: PLAIN,
    });
  });

  it('refuses on upload LRC past the measured end, out of order, HTML or 1 MB, storing nothing', async () => {
    const before = await songCount();
    const past = refusal(await upload('[00:01.00]a\n[00:12.00]b'));
    expect(past).toMatchObject({
      code: 'validation_failed',
      message: 'Lyrics line 2: 00:12.00 is past the end of the song (00:10.00)',
    });
    expect(refusal(await upload('[00:05.00]b\n[00:02.00]a')).message).toBe(
      'Lyrics line 2: 00:02.00 comes before 00:05.00 on line 1',
    );
    expect(refusal(await upload('nice\n<script>alert(1)</script>')).message).toBe(
      'Lyrics line 2: HTML is not allowed; use plain text or LRC',
    );
    expect(refusal(await upload('la '.repeat(350_000))).message).toBe(
      'Lyrics must be at most 32 KB',
    );
    expect(await songCount()).toBe(before);
  });

  it('sets, replaces and clears lyrics by edit; the DTO follows', async () => {
    const set = await edit(songId, { lyrics: LRC });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().has_lyrics).toBe(true);
    expect((await lyricsOf(songId)).json().synced).toBe(true);

    const plain = await edit(songId, { lyrics: PLAIN, title: 'Renamed' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json()).toMatchObject({ title: 'Renamed', has_lyrics: true });
    expect((await lyricsOf(songId)).json()).toMatchObject({ synced: false, text: PLAIN });

    const cleared = await edit(songId, { lyrics: null });
    expect(cleared.json().has_lyrics).toBe(false);
    const none = await lyricsOf(songId);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toEqual({ code: 'not_found', message: 'This song has no lyrics' });

    await edit(songId, { lyrics: PLAIN });
    const blank = await edit(songId, { lyrics: '  \n ' });
    expect(blank.json().has_lyrics).toBe(false);
    expect(await storedText(songId)).toBeNull();
  });

  it('refuses bad lyrics on edit and changes nothing', async () => {
    await edit(songId, { lyrics: PLAIN });
    const cases: Array<[string, string]> = [
      [
        '[00:01.00]a\n[00:10.01]b',
        'Lyrics line 2: 00:10.01 is past the end of the song (00:10.00)',
      ],
      [
        '[00:03.00]a\n[00:04.00]b\n[00:01.00]c',
        'Lyrics line 3: 00:01.00 comes before 00:04.00 on line 2',
      ],
      ['<b>bold</b>', 'Lyrics line 1: HTML is not allowed; use plain text or LRC'],
      ['x'.repeat(1_000_000), 'Lyrics must be at most 32 KB'],
      ['[00:01.00]a\nno stamp here', 'Lyrics line 2: has no [mm:ss.xx] timestamp'],
    ];
    for (const [lyrics, message] of cases) {
      const error = refusal(await edit(songId, { lyrics, title: 'Should not stick' }));
      expect(error).toMatchObject({ code: 'validation_failed', message });
    }
    expect(await storedText(songId)).toBe(PLAIN);
    const song = await ctx.app.inject({
      method: 'GET',
      url: `/api/songs/${songId}`,
      headers: listener.headers,
    });
    expect(song.json().title).not.toBe('Should not stick');
  });

  it("lets only the song's artist set its lyrics", async () => {
    await edit(songId, { lyrics: PLAIN });
    for (const user of [other, listener]) {
      const res = await edit(songId, { lyrics: LRC }, user);
      expect(res.statusCode, res.body).toBe(403);
      const cleared = await edit(songId, { lyrics: null }, user);
      expect(cleared.statusCode).toBe(403);
    }
    expect(await storedText(songId)).toBe(PLAIN);
  });

  it('answers 404 for the lyrics of no song', async () => {
    const res = await lyricsOf('00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Song not found');
  });

  describe('through the Subsonic API', () => {
    let apiKey = '';
    const rest = (method: string, query: Record<string, string>) =>
      ctx.app.inject({
        method: 'GET',
        url: `/rest/${method}.view?${new URLSearchParams({ v: '1.16.1', c: 'test', f: 'json', apiKey, ...query })}`,
        remoteAddress: freshIp(),
      });
    const answer = async (method: string, query: Record<string, string>) => {
      const res = await rest(method, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json()['subsonic-response'];
    };

    beforeAll(async () => {
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/me/subsonic/passwords',
        headers: listener.headers,
        payload: { name: 'Phone' },
      });
      apiKey = created.json<{ password: string }>().password;
    });

    it('serves synced lyrics as structuredLyrics with the offset for the client', async () => {
      await edit(songId, { lyrics: '[offset:+500]\n[00:01.00]One\n[00:02.50][00:05.00]Two' });
      const body = await answer('getLyricsBySongId', { id: songId });
      expect(body.status).toBe('ok');
      expect(body.lyricsList).toEqual({
        structuredLyrics: [
          {
            displayArtist: 'Lyric Artist',
            displayTitle: expect.any(String),
            lang: 'xxx',
            synced: true,
            offset: 500,
            line: [
              { start: 1000, value: 'One' },
              { start: 2500, value: 'Two' },
              { start: 5000, value: 'Two' },
            ],
          },
        ],
      });
    });

    it('serves plain lyrics unsynced, and getLyrics by artist and title', async () => {
      await edit(songId, { lyrics: PLAIN, title: 'Sing Along' });
      const body = await answer('getLyricsBySongId', { id: songId });
      expect(body.lyricsList.structuredLyrics[0]).toMatchObject({
        synced: false,
        line: [{ value: 'Just words' }, { value: '' }, { value: 'No times at all' }],
      });
      expect(body.lyricsList.structuredLyrics[0].line[0]).not.toHaveProperty('start');

      const legacy = await answer('getLyrics', { artist: 'lyric artist', title: 'SING ALONG' });
      expect(legacy.lyrics).toEqual({
        artist: 'Lyric Artist',
        title: 'Sing Along',
        value: 'Just words\n\nNo times at all',
      });
      expect((await answer('getLyrics', { artist: 'Nobody', title: 'Sing Along' })).lyrics).toEqual(
        {},
      );

      await edit(songId, { lyrics: null });
      expect((await answer('getLyricsBySongId', { id: songId })).lyricsList).toEqual({});
    });
  });
});
