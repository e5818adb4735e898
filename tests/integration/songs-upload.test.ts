import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { parseBuffer } from 'music-metadata';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import {
  lazyBytes,
  makePng,
  makeUser,
  makeWav,
  multipart,
  rows,
  storedFiles,
  type Part,
  type TestUser,
} from './songs-helpers.ts';

const MB = 1024 * 1024;

describe.each(dbKinds)('song upload on %s', (kind) => {
  const ctx = useTestApp(kind);
  let artist: TestUser;
  let wav: Buffer;
  let png: Buffer;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Nova Lights');
    wav = makeWav(2.5);
    png = await makePng();
  });

  const upload = (parts: Part[], user: TestUser | null = artist) => {
    const { headers, payload } = multipart(parts);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...(user?.headers ?? {}) },
      payload,
    });
  };
  const songCount = async () =>
    Number((await rows<{ n: number }>(ctx, sql`select count(*)::int as n from songs`))[0]!.n);

  /** Runs a request that must fail and proves it left no row and no file behind. */
  async function expectRefused(
    request: () => ReturnType<typeof upload>,
    status: number,
    code: string,
    message?: string,
  ) {
    const before = { songs: await songCount(), files: storedFiles(ctx.env.dataDir) };
    const res = await request();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error.code).toBe(code);
    if (message) expect(res.json().error.message).toBe(message);
    expect(await songCount()).toBe(before.songs);
    expect(storedFiles(ctx.env.dataDir)).toEqual(before.files);
    return res;
  }

  it('stores a WAV with its cover: 201, the row, both files, the right duration, served back', async () => {
    const res = await upload([
      { name: 'title', value: '  Midnight Drive ' },
      { name: 'genre', value: 'Electronic' },
      { name: 'file', filename: 'drive.wav', contentType: 'audio/wav', data: wav },
      { name: 'cover', filename: 'cover.png', contentType: 'image/png', data: png },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const song = res.json();
    expect(song).toMatchObject({
      artist_id: artist.userId,
      artist: 'Nova Lights',
      title: 'Midnight Drive',
      genre: 'Electronic',
      source: null,
      preview_url: null,
      duration: 2.5,
      play_count: 0,
    });
    expect(song.file_url).toMatch(
      /^\/media\/music\/[0-9a-f-]{36}\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/,
    );
    expect(song.cover_art_url).toMatch(/^\/media\/cover-art\/[0-9a-f-]{36}\.webp$/);

    const [row] = await rows<{ duration_ms: number; file_key: string; cover_art_key: string }>(
      ctx,
      sql`select duration_ms, file_key, cover_art_key from songs where id = ${song.id}`,
    );
    expect(row!.duration_ms).toBe(2500);
    expect(row!.file_key).toBe(song.file_url.split('?')[0].replace('/media/', ''));
    expect(fs.readFileSync(path.join(ctx.env.dataDir, 'media', row!.file_key)).equals(wav)).toBe(
      true,
    );
    expect(fs.existsSync(path.join(ctx.env.dataDir, 'media', row!.cover_art_key))).toBe(true);
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);

    const audio = await ctx.app.inject({ method: 'GET', url: song.file_url });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(audio.rawPayload.equals(wav)).toBe(true);
    expect((await parseBuffer(audio.rawPayload)).format.duration).toBe(2.5);

    // The cover was decoded and re-encoded: WebP, at most 1000 px, no EXIF left.
    const cover = await ctx.app.inject({ method: 'GET', url: song.cover_art_url });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/webp');
    const meta = await sharp(cover.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1000, height: 750 });
    expect(meta.exif).toBeUndefined();
    expect(cover.rawPayload.includes('secret-exif-marker')).toBe(false);

    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/songs/${song.id}`,
      headers: artist.headers,
    });
    expect(again.json()).toEqual(song);
  });

  it('defaults the title to the file name without its extension, and never uses the name as a key', async () => {
    const res = await upload([
      { name: 'file', filename: '../../etc/passwd.mp3', contentType: 'audio/mpeg', data: wav },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const song = res.json();
    expect(song.title).toBe('passwd');
    expect(song.genre).toBeNull();
    expect(song.cover_art_url).toBeNull();
    // Stored as what the bytes are (WAV), under a fresh UUID key inside the music bucket.
    expect(song.file_url).toMatch(
      /^\/media\/music\/[0-9a-f-]{36}\.wav\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/,
    );
    expect(storedFiles(ctx.env.dataDir).some((f) => f.includes('passwd'))).toBe(false);
    expect(fs.existsSync(path.join(ctx.env.dataDir, 'etc'))).toBe(false);
  });

  it("defaults the title to the file's tag title first, and a blank title counts as none", async () => {
    const tagged = makeWav(1, 8000, 'Tagged Title');
    const res = await upload([
      { name: 'title', value: '   ' },
      { name: 'file', filename: 'file-name.wav', data: tagged },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ title: 'Tagged Title', duration: 1 });
  });

  it('accepts a title of exactly 200 characters', async () => {
    const title = 't'.repeat(200);
    const res = await upload([
      { name: 'title', value: title },
      { name: 'file', filename: 'a.wav', data: wav },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().title).toBe(title);
  });

  it('refuses a missing file with the spec message', async () => {
    await expectRefused(
      () =>
        upload([
          { name: 'title', value: 'No audio' },
          { name: 'cover', filename: 'c.png', data: png },
        ]),
      400,
      'validation_failed',
      'Please select a music file to upload',
    );
  });

  it('treats an empty file part (a form with no file chosen) as a missing file', async () => {
    await expectRefused(
      () =>
        upload([
          { name: 'title', value: 'Nothing chosen' },
          { name: 'file', filename: '', data: Buffer.alloc(0) },
          { name: 'cover', filename: '', data: Buffer.alloc(0) },
        ]),
      400,
      'validation_failed',
      'Please select a music file to upload',
    );
  });

  it('refuses a 201-character title, whichever side of the file it arrives', async () => {
    const title = 'x'.repeat(201);
    for (const parts of [
      [
        { name: 'title', value: title },
        { name: 'file', filename: 'a.wav', data: wav },
      ],
      [
        { name: 'file', filename: 'a.wav', data: wav },
        { name: 'title', value: title },
      ],
    ] as Part[][]) {
      await expectRefused(
        () => upload(parts),
        400,
        'validation_failed',
        'Title must be less than 200 characters',
      );
    }
  });

  it('refuses a genre over 100 characters', async () => {
    await expectRefused(
      () =>
        upload([
          { name: 'genre', value: 'g'.repeat(101) },
          { name: 'file', filename: 'a.wav', data: wav },
        ]),
      400,
      'validation_failed',
      'Genre must be less than 100 characters',
    );
  });

  it('refuses non-audio bytes named .mp3 (415, spec §8 message)', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const res = await expectRefused(
      () => upload([{ name: 'file', filename: 'song.mp3', contentType: 'audio/mpeg', data: html }]),
      415,
      'unsupported_media',
      'Music file validation failed. Please ensure you are uploading a valid audio file.',
    );
    expect(res.json().error.details.field).toBe('file');
  });

  it('refuses a file whose header says audio but whose body does not parse', async () => {
    // RIFF/WAVE magic, then garbage: the signature passes, the real parse must not.
    const fake = Buffer.concat([
      Buffer.from('RIFF\x10\x00\x00\x00WAVEjunk', 'latin1'),
      Buffer.alloc(64, 1),
    ]);
    await expectRefused(
      () => upload([{ name: 'file', filename: 'x.wav', data: fake }]),
      415,
      'unsupported_media',
      'Music file validation failed. Please ensure you are uploading a valid audio file.',
    );
  });

  it('refuses an HTML file named .png as cover (415), storing neither file', async () => {
    const res = await expectRefused(
      () =>
        upload([
          { name: 'file', filename: 'a.wav', data: wav },
          {
            name: 'cover',
            filename: 'cover.png',
            contentType: 'image/png',
            data: Buffer.from('<html><body>hi</body></html>'),
          },
        ]),
      415,
      'unsupported_media',
      'Cover art validation failed. Please ensure you are uploading a valid image file.',
    );
    expect(res.json().error.details.field).toBe('cover');
  });

  it('refuses an SVG cover (a document, not pixels)', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    await expectRefused(
      () =>
        upload([
          { name: 'file', filename: 'a.wav', data: wav },
          { name: 'cover', filename: 'c.svg', data: svg },
        ]),
      415,
      'unsupported_media',
    );
  });

  it('refuses a cover over 5 MB with 413 and the spec message', async () => {
    await expectRefused(
      () =>
        upload([
          { name: 'file', filename: 'a.wav', data: wav },
          { name: 'cover', filename: 'big.png', data: lazyBytes(5 * MB + 1, png.subarray(0, 64)) },
        ]),
      413,
      'payload_too_large',
      'Cover art must be less than 5MB',
    );
  });

  it('refuses audio of 100 MB + 1 byte with 413, streamed, leaving nothing behind', async () => {
    const header = makeWav(0.01).subarray(0, 44);
    const res = await expectRefused(
      () => upload([{ name: 'file', filename: 'huge.wav', data: lazyBytes(100 * MB + 1, header) }]),
      413,
      'payload_too_large',
      'Audio file must be less than 100MB',
    );
    expect(res.json().error.details.field).toBe('file');
  }, 60_000);

  it('refuses a listener (403) and a pending artist (403), storing nothing', async () => {
    const listener = await makeUser(ctx, 'listener');
    const pending = await makeUser(ctx, 'pending_artist');
    for (const user of [listener, pending]) {
      await expectRefused(
        () => upload([{ name: 'file', filename: 'a.wav', data: wav }], user),
        403,
        'permission_denied',
      );
    }
    const res = await upload([{ name: 'file', filename: 'a.wav', data: wav }], null);
    expect(res.statusCode).toBe(401);
  });

  it('refuses a JSON body and an extra file field', async () => {
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: artist.headers,
      payload: { title: 'x' },
    });
    expect(json.statusCode).toBe(415);
    await expectRefused(
      () =>
        upload([
          { name: 'file', filename: 'a.wav', data: wav },
          { name: 'other', filename: 'b.wav', data: wav },
        ]),
      400,
      'validation_failed',
    );
  });

  it('announces a release to every follower in one go, and to nobody else', async () => {
    const singer = await makeUser(ctx, 'artist', 'Echo Vale');
    const fans = await Promise.all([makeUser(ctx), makeUser(ctx), makeUser(ctx)]);
    const stranger = await makeUser(ctx);
    for (const fan of fans) {
      await ctx.db.database.db.execute(
        sql`insert into user_follows (follower_id, following_id) values (${fan.userId}, ${singer.userId})`,
      );
    }
    const res = await upload(
      [
        { name: 'title', value: 'First Light' },
        { name: 'file', filename: 'a.wav', data: wav },
      ],
      singer,
    );
    expect(res.statusCode, res.body).toBe(201);
    const notes = await rows<{
      user_id: string;
      type: string;
      title: string;
      message: string;
      link: string;
      read: boolean;
    }>(
      ctx,
      sql`select user_id, type, title, message, link, read from notifications where type = 'new_release' order by user_id`,
    );
    expect(notes.map((n) => n.user_id).sort()).toEqual(fans.map((f) => f.userId).sort());
    expect(notes.map((n) => n.user_id)).not.toContain(stranger.userId);
    expect(notes[0]).toMatchObject({
      type: 'new_release',
      title: 'New release',
      message: 'Echo Vale released "First Light"',
      link: `/profile/${singer.userId}`,
      read: false,
    });
  });
});
