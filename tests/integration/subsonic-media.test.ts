// OpenSubsonic's media methods (docs/decisions/0034): stream picks a song's rendition by
// maxBitRate and format and sends it through the /media route's own path (Range, 206, 416),
// counting no play; download sends the original as an attachment; getCoverArt scales and
// caches covers in storage; ids of nothing, of external tracks and of paths are error 70.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { freshIp } from './auth-helpers.ts';
import { makePng, makeUser, makeWav, rows, uploadSong, type TestUser } from './songs-helpers.ts';

type Rendition = { format: string; codec: string; bitrate_kbps: number; file_url: string };
type Envelope = { status: string; error?: { code: number; message: string } } & Record<
  string,
  unknown
>;

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

describe.each(dbKinds)('Subsonic media methods on %s', (kind) => {
  const ctx = useTestApp(kind, {
    JOB_POLL_INTERVAL_MS: '50',
    MEDIA_WORKERS: '1',
    MEDIA_SWEEP_AGE_SECONDS: '0',
  });
  let artist: TestUser;
  let listener: TestUser;
  let apiKey = '';
  let songId = '';
  let song: { file_url: string; cover_art_url: string; artist_id: string; year: number };
  let renditions: Rendition[] = [];
  let external = '';
  let processing = '';
  let showId = '';
  let episodeId = '';

  /** The stored file a `/media/<bucket>/<key>` URL names, from the data directory. */
  const fileOf = (url: string) =>
    fs.readFileSync(path.join(ctx.env.dataDir, 'media', url.replace(/^\/media\//, '')));

  const get = (method: string, query: Record<string, string>, headers = {}) =>
    ctx.app.inject({
      method: 'GET',
      url: `/rest/${method}.view?${new URLSearchParams({ v: '1.16.1', c: 'test', apiKey, ...query })}`,
      headers,
      remoteAddress: freshIp(),
    });

  async function failure(method: string, query: Record<string, string>, format: 'json' | 'xml') {
    const res = await get(method, format === 'json' ? { ...query, f: 'json' } : query);
    expect(res.statusCode, res.body).toBe(200);
    if (format === 'json') {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      return res.json<{ 'subsonic-response': Envelope }>()['subsonic-response'];
    }
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const root = xmlParser.parse(res.body)['subsonic-response'] as Envelope;
    return { ...root, error: root.error && { ...root.error, code: Number(root.error.code) } };
  }

  const plays = async () => {
    const [row] = await rows<{ records: number; plays: number }>(
      ctx,
      sql`select (select count(*)::int from stream_analytics) as records,
                 (select play_count::int from songs where id = ${songId}) as plays`,
    );
    return row!;
  };

  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> => {
    const [row] = await rows<T>(ctx, query);
    if (!row) throw new Error('no row');
    return row;
  };
  const insertedId = async (query: ReturnType<typeof sql>) => (await one<{ id: string }>(query)).id;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Zoë Artist');
    listener = await makeUser(ctx, 'listener', 'Media Listener');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/subsonic/passwords',
      headers: listener.headers,
      payload: { name: 'Phone' },
    });
    expect(created.statusCode, created.body).toBe(201);
    apiKey = created.json<{ password: string }>().password;

    await ctx.jobs.start();
    // A wide cover (aspect 2:1) and one second of audio: renditions in well under a second.
    const uploaded = await uploadSong(ctx, artist, {
      title: 'Café "Ünïcode" Song',
      audio: makeWav(1),
      cover: await makePng(400, 200),
    });
    songId = uploaded.id;
    const until = Date.now() + 30_000;
    for (;;) {
      const [row] = await rows<{ media_status: string }>(
        ctx,
        sql`select media_status::text as media_status from songs where id = ${songId}`,
      );
      if (row!.media_status === 'ready') break;
      if (row!.media_status === 'failed' || Date.now() > until)
        throw new Error(`song is ${row!.media_status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    song = await one<typeof song>(
      sql`select file_url, cover_art_url, artist_id,
                 extract(year from created_at at time zone 'UTC')::int as year
          from songs where id = ${songId}`,
    );
    renditions = await rows<Rendition>(
      ctx,
      sql`select format, codec, bitrate_kbps, file_url from song_renditions
          where song_id = ${songId} order by bitrate_kbps`,
    );
    expect(renditions.map((r) => r.format)).toEqual(['opus-96', 'aac-128', 'opus-160']);

    // An external catalogue track, and an upload still processing (no renditions yet).
    external = await insertedId(
      sql`insert into songs (title, artist, source, external_id, preview_url, cover_art_url)
          values ('Remote', 'Elsewhere', 'itunes', 'x1', 'https://example.com/p.m4a',
                  ${song.cover_art_url})
          returning id`,
    );
    processing = await insertedId(
      sql`insert into songs (artist_id, artist, title, file_url, file_key, media_status)
          values (${artist.userId}, 'Zoë Artist', 'Pending', ${song.file_url},
                  ${song.file_url.replace(/^\/media\//, '')}, 'processing')
          returning id`,
    );
    // A show with the song's cover and an episode whose audio is the song's original.
    showId = await insertedId(
      sql`insert into podcasts (creator_id, title, cover_art_url)
          values (${artist.userId}, 'The Show', ${song.cover_art_url}) returning id`,
    );
    episodeId = await insertedId(
      sql`insert into podcast_episodes (podcast_id, title, audio_url)
          values (${showId}, 'Episode One', ${song.file_url}) returning id`,
    );
  });

  it('streams the Opus 96 rendition for maxBitRate=96 and the original for format=raw', async () => {
    const before = await plays();
    const opus96 = await get('stream', { id: songId, maxBitRate: '96' });
    expect(opus96.statusCode).toBe(200);
    expect(opus96.headers['content-type']).toBe('audio/webm');
    expect(opus96.rawPayload.equals(fileOf(renditions[0]!.file_url))).toBe(true);
    expect(Number(opus96.headers['content-length'])).toBe(opus96.rawPayload.length);
    expect(opus96.headers['accept-ranges']).toBe('bytes');
    expect(opus96.headers.etag).toBeTruthy();
    // The router's own headers survive the file's.
    expect(opus96.headers['access-control-allow-origin']).toBe('*');

    const raw = await get('stream', { id: songId, format: 'raw', estimateContentLength: 'true' });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('audio/wav');
    const original = fileOf(song.file_url);
    expect(raw.rawPayload.equals(original)).toBe(true);
    expect(Number(raw.headers['content-length'])).toBe(original.length);
    // The original's own format is the original too.
    const wav = await get('stream', { id: songId, format: 'wav' });
    expect(wav.rawPayload.equals(original)).toBe(true);

    // Streaming is not listening: no record, no play counted.
    expect(await plays()).toEqual(before);
  });

  it('chooses among the renditions by bitrate and codec', async () => {
    const body = async (query: Record<string, string>) =>
      (await get('stream', { id: songId, ...query })).rawPayload;
    const file = (format: string) => fileOf(renditions.find((r) => r.format === format)!.file_url);
    expect((await body({})).equals(file('opus-160'))).toBe(true);
    expect((await body({ maxBitRate: '0' })).equals(file('opus-160'))).toBe(true);
    expect((await body({ maxBitRate: '128' })).equals(file('aac-128'))).toBe(true);
    expect((await body({ maxBitRate: '320' })).equals(file('opus-160'))).toBe(true);
    // Below every rendition: the lightest.
    expect((await body({ maxBitRate: '32' })).equals(file('opus-96'))).toBe(true);
    expect((await body({ format: 'opus', maxBitRate: '128' })).equals(file('opus-96'))).toBe(true);
    expect((await body({ format: 'aac' })).equals(file('aac-128'))).toBe(true);
    const aac = await get('stream', { id: songId, format: 'm4a' });
    expect(aac.headers['content-type']).toBe('audio/mp4');
    // No MP3 rendition: the usual choice.
    expect((await body({ format: 'mp3', maxBitRate: '96' })).equals(file('opus-96'))).toBe(true);
    // A song still processing streams its original whatever is asked.
    const pending = await get('stream', { id: processing, maxBitRate: '96' });
    expect(pending.headers['content-type']).toBe('audio/wav');
    expect(pending.rawPayload.equals(fileOf(song.file_url))).toBe(true);
    // An episode streams by its ep- id, the same way.
    const episode = await get('stream', { id: `ep-${episodeId}` });
    expect(episode.statusCode).toBe(200);
    expect(episode.rawPayload.equals(fileOf(song.file_url))).toBe(true);
  });

  it('answers a Range with 206 and its bytes, and an unsatisfiable one with 416', async () => {
    const file = fileOf(renditions[0]!.file_url);
    const part = await get('stream', { id: songId, maxBitRate: '96' }, { range: 'bytes=10-99' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${file.length}`);
    expect(Number(part.headers['content-length'])).toBe(90);
    expect(part.rawPayload.equals(file.subarray(10, 100))).toBe(true);

    const tail = await get('stream', { id: songId, maxBitRate: '96' }, { range: 'bytes=-16' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(file.subarray(file.length - 16))).toBe(true);

    const past = await get(
      'stream',
      { id: songId, maxBitRate: '96' },
      { range: `bytes=${file.length + 10}-` },
    );
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${file.length}`);

    // A revalidation with the ETag is 304, without a body.
    const etag = part.headers.etag as string;
    const again = await get('stream', { id: songId, maxBitRate: '96' }, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('downloads the original as an attachment with a safe file name', async () => {
    const res = await get('download', { id: songId });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.rawPayload.equals(fileOf(song.file_url))).toBe(true);
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toBe(
      `attachment; filename="Zoe Artist - Cafe _Unicode_ Song.wav"; ` +
        `filename*=UTF-8''${encodeURIComponent('Zoë Artist - Café "Ünïcode" Song.wav')}`,
    );
    // The header is plain ASCII whatever the title holds.
    expect(disposition).toMatch(/^[\u0020-\u007e]+$/);
  });

  it('scales a cover, keeps the copy in storage and serves it from there the second time', async () => {
    const res = await get('getCoverArt', { id: songId, size: '100' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+/);
    expect(res.headers.etag).toBeTruthy();
    const meta = await sharp(res.rawPayload).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'jpeg',
      width: 100,
      height: 50,
    });

    // Cached under the cover's own UUID, as the reconciler keeps it.
    const coverUuid = /([0-9a-f-]{36})\.\w+$/.exec(song.cover_art_url)![1]!;
    const cached = path.join(ctx.env.dataDir, 'media', 'cover-art', coverUuid, '100.jpg');
    expect(fs.readFileSync(cached).equals(res.rawPayload)).toBe(true);
    // Without size: the stored cover itself. Album, artist, show and episode ids resolve to
    // the same cover here (the artist's newest song's, the show's).
    const whole = await get('getCoverArt', { id: songId });
    expect(whole.rawPayload.equals(fileOf(song.cover_art_url))).toBe(true);
    for (const id of [
      `al-${song.artist_id}-${song.year}`,
      `ar-${song.artist_id}`,
      `pc-${showId}`,
      `ep-${episodeId}`,
    ]) {
      const other = await get('getCoverArt', { id });
      expect(other.statusCode, id).toBe(200);
      expect(other.rawPayload.equals(fileOf(song.cover_art_url)), id).toBe(true);
    }
    // A size bigger than the cover is the cover's own size (never enlarged).
    const big = await get('getCoverArt', { id: `ar-${song.artist_id}`, size: '2048' });
    expect((await sharp(big.rawPayload).metadata()).width).toBe(400);

    // The second request reads the stored copy: with the cover itself out of the way, the
    // same bytes come back from the same file, not written again.
    const inode = fs.statSync(cached).ino;
    const coverFile = path.join(ctx.env.dataDir, song.cover_art_url);
    fs.renameSync(coverFile, `${coverFile}.away`);
    try {
      const second = await get('getCoverArt', { id: songId, size: '100' });
      expect(second.statusCode).toBe(200);
      expect(second.rawPayload.equals(res.rawPayload)).toBe(true);
      expect(fs.statSync(cached).ino).toBe(inode);
    } finally {
      fs.renameSync(`${coverFile}.away`, coverFile);
    }
  });

  it('answers error 70 for unknown, external and path-like ids, in XML and JSON', async () => {
    const nothing = '00000000-0000-4000-8000-000000000000';
    const cases: Array<[string, Record<string, string>]> = [];
    for (const method of ['stream', 'download', 'getCoverArt'])
      for (const id of [
        nothing,
        external,
        '../../etc/passwd',
        '..%2F..%2Fetc%2Fpasswd',
        `ar-${nothing}`,
        `al-${song.artist_id}-1901`,
        `pc-${nothing}`,
        `ep-${nothing}`,
        '/etc/passwd',
      ])
        cases.push([method, { id }]);
    cases.push(['stream', { id: `ar-${song.artist_id}` }], ['download', { id: `pc-${showId}` }]);
    cases.push(['getLyricsBySongId', { id: external }], ['getLyricsBySongId', { id: nothing }]);
    for (const [method, query] of cases)
      for (const format of ['json', 'xml'] as const) {
        const answer = await failure(method, query, format);
        expect(answer, `${method} ${query.id} ${format}`).toMatchObject({
          status: 'failed',
          error: { code: 70 },
        });
      }
    // A missing id is 10.
    expect(await failure('stream', {}, 'json')).toMatchObject({ error: { code: 10 } });
  });

  it('refuses a bad size or bitrate with an error envelope', async () => {
    for (const size of ['0', '2049', 'abc', '-5', '1.5'])
      for (const format of ['json', 'xml'] as const)
        expect(await failure('getCoverArt', { id: songId, size }, format)).toMatchObject({
          status: 'failed',
          error: { code: 0 },
        });
    expect(await failure('stream', { id: songId, maxBitRate: 'lots' }, 'json')).toMatchObject({
      status: 'failed',
      error: { code: 0 },
    });
  });

  it('answers lyrics: an empty list for a song, and announces songLyrics', async () => {
    const lyrics = await get('getLyricsBySongId', { id: songId, f: 'json' });
    expect(lyrics.json()['subsonic-response']).toMatchObject({ status: 'ok', lyricsList: {} });
    const xml = await get('getLyricsBySongId', { id: songId });
    expect(xml.body).toContain('<lyricsList/>');
    const legacy = await get('getLyrics', { artist: 'Zoë Artist', title: 'x', f: 'json' });
    expect(legacy.json()['subsonic-response']).toMatchObject({ status: 'ok', lyrics: {} });
    const extensions = await get('getOpenSubsonicExtensions', { f: 'json' });
    expect(extensions.json()['subsonic-response'].openSubsonicExtensions).toEqual(
      expect.arrayContaining([{ name: 'songLyrics', versions: [1] }]),
    );
  });

  it('keeps a scaled cover while its cover is named by a row, and sweeps one whose cover is gone', async () => {
    await get('getCoverArt', { id: songId, size: '64' });
    const coverUuid = /([0-9a-f-]{36})\.\w+$/.exec(song.cover_art_url)![1]!;
    const kept = path.join(ctx.env.dataDir, 'media', 'cover-art', coverUuid, '64.jpg');
    const gone = path.join(ctx.env.dataDir, 'media', 'cover-art', crypto.randomUUID(), '64.jpg');
    fs.mkdirSync(path.dirname(gone), { recursive: true });
    fs.copyFileSync(kept, gone);
    // Old enough by the app's clock for the sweep.
    ctx.clock.advance(60_000);
    const report = await ctx.reconciler.runOnce();
    expect(report.refused).toEqual([]);
    expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(gone)).toBe(false);
  });
});
