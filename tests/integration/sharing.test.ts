// Share links (docs/decisions/0035): what a song or playlist link shows to a listener and to a
// visitor, which items never show (private playlists, deleted, processing, failed, external
// songs, ids of nothing), the visitors' 30 s preview (stream-copied once, Range like /media,
// kept beside its rendition and deleted with the song) and oEmbed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedBinary } from '../../src/server/media/ffmpeg.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  makePng,
  makeUser,
  makeWav,
  rows,
  storedFiles,
  uploadSong,
  type TestUser,
} from './songs-helpers.ts';

const PUBLIC_URL = 'https://canto.example';

type SongBody = {
  id: string;
  title: string;
  file_url: string | null;
  preview_url: string | null;
  renditions: unknown[];
  waveform_url: string | null;
  cover_art_url: string | null;
  status: string;
};
type PlaylistBody = {
  full: boolean;
  id: string;
  name: string;
  owner: { id: string; name: string };
  songs: SongBody[];
};

/**
 * FFMPEG_PATH for these tests: the packaged ffmpeg, behind a script that notes each
 * stream-copy run (the previews' clips) in a file, so a test can count them.
 */
function countingFfmpeg(dir: string): { binary: string; clipRuns: () => number } {
  fs.mkdirSync(dir, { recursive: true });
  const log = path.join(dir, 'clip-runs.log');
  const binary = path.join(dir, 'ffmpeg-counting.sh');
  fs.writeFileSync(
    binary,
    `#!/bin/sh\ncase " $* " in *" -c copy "*) echo run >> '${log}';; esac\nexec '${packagedBinary()}' "$@"\n`,
    { mode: 0o755 },
  );
  return {
    binary,
    clipRuns: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').length - 1 : 0),
  };
}

/** How long the audio in `bytes` lasts, decoded by ffmpeg (not what its header says). */
function decodedSeconds(bytes: Buffer, dir: string): number {
  const file = path.join(dir, `probe-${process.pid}-${Date.now()}.webm`);
  fs.writeFileSync(file, bytes);
  try {
    const run = spawnSync(packagedBinary(), ['-nostdin', '-i', file, '-f', 'null', '-'], {
      encoding: 'utf8',
    });
    const times = [...run.stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)];
    const last = times.at(-1);
    if (!last) throw new Error(`ffmpeg decoded nothing: ${run.stderr.slice(-400)}`);
    return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const scratch = path.resolve('.tmp', `sharing-${process.pid}`);
const ffmpeg = countingFfmpeg(scratch);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe.each(dbKinds)('share links on %s', (kind) => {
  const ctx = useTestApp(kind, {
    PUBLIC_URL,
    FFMPEG_PATH: ffmpeg.binary,
    JOB_POLL_INTERVAL_MS: '50',
    MEDIA_WORKERS: '1',
    // Any file no row keeps is swept at once: the clip must be kept by its rendition's row.
    MEDIA_SWEEP_AGE_SECONDS: '0',
  });
  let artist: TestUser;
  let listener: TestUser;
  let other: TestUser;
  let songId = '';
  let coverUrl = '';
  let processing = '';
  let failed = '';
  let external = '';
  let deleted = '';
  let publicList = '';
  let privateList = '';

  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers });

  async function untilReady(id: string) {
    const until = Date.now() + 60_000;
    for (;;) {
      const [row] = await rows<{ s: string }>(
        ctx,
        sql`select media_status::text as s from songs where id = ${id}`,
      );
      if (row!.s === 'ready') return;
      if (row!.s === 'failed' || Date.now() > until) throw new Error(`song is ${row!.s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const inserted = async (query: ReturnType<typeof sql>) =>
    (await rows<{ id: string }>(ctx, query))[0]!.id;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Zoë "The" <Artist>');
    listener = await makeUser(ctx, 'listener', 'Listener');
    other = await makeUser(ctx, 'listener', 'Other');
    await ctx.jobs.start();
    // 40 s: longer than the preview, so the clip is cut.
    const song = await uploadSong(ctx, artist, {
      title: 'Long & "Quoted" <Song>',
      audio: makeWav(40),
      cover: await makePng(300, 300),
    });
    songId = song.id;
    coverUrl = song.cover_art_url;
    const gone = await uploadSong(ctx, artist, { title: 'Soon Gone' });
    await untilReady(songId);
    await untilReady(gone.id);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/songs/${gone.id}`,
      headers: artist.headers,
    });
    expect(del.statusCode, del.body).toBe(204);
    deleted = gone.id;

    const [original] = await rows<{ file_url: string; file_key: string }>(
      ctx,
      sql`select file_url, file_key from songs where id = ${songId}`,
    );
    processing = await inserted(
      sql`insert into songs (artist_id, artist, title, file_url, file_key, media_status)
          values (${artist.userId}, 'A', 'Pending', ${original!.file_url}, ${original!.file_key},
                  'processing') returning id`,
    );
    failed = await inserted(
      sql`insert into songs (artist_id, artist, title, file_url, file_key, media_status)
          values (${artist.userId}, 'A', 'Broken', ${original!.file_url}, ${original!.file_key},
                  'failed') returning id`,
    );
    external = await inserted(
      sql`insert into songs (title, artist, source, external_id, preview_url)
          values ('Remote', 'Elsewhere', 'itunes', 'x1', 'https://example.com/p.m4a')
          returning id`,
    );

    const makeList = async (title: string, isPublic: boolean) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/playlists',
        headers: listener.headers,
        payload: { title, is_public: isPublic },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json<{ id: string }>().id;
      for (const song of [songId, processing, failed]) {
        const added = await ctx.app.inject({
          method: 'POST',
          url: `/api/playlists/${id}/tracks`,
          headers: listener.headers,
          payload: { song_id: song },
        });
        expect(added.statusCode, added.body).toBe(201);
      }
      return id;
    };
    publicList = await makeList('Road <Trip> & "Friends"', true);
    privateList = await makeList('Secret Diary', false);
  }, 120_000);

  it('gives a signed-in listener the whole song, as GET /api/songs/:id does', async () => {
    const res = await get(`/api/share/songs/${songId}`, listener.headers);
    expect(res.statusCode, res.body).toBe(200);
    const plain = await get(`/api/songs/${songId}`, listener.headers);
    expect(res.json()).toEqual({ full: true, song: plain.json() });
    expect(res.json<{ song: SongBody }>().song.file_url).toMatch(/^\/media\/music\//);
  });

  it('gives a visitor the song without its file, renditions or waveform, with the preview', async () => {
    const res = await get(`/api/share/songs/${songId}`);
    expect(res.statusCode, res.body).toBe(200);
    const { full, song } = res.json<{ full: boolean; song: SongBody }>();
    expect(full).toBe(false);
    expect(song.title).toBe('Long & "Quoted" <Song>');
    expect(song.file_url).toBeNull();
    expect(song.renditions).toEqual([]);
    expect(song.waveform_url).toBeNull();
    expect(song.preview_url).toBe(`/api/share/songs/${songId}/preview`);
    expect(song.cover_art_url).toBe(coverUrl);
    // No path to the stored audio anywhere in the answer.
    expect(res.body).not.toContain('/media/music/');
    // An upper-case id names the same song.
    expect((await get(`/api/share/songs/${songId.toUpperCase()}`)).statusCode).toBe(200);
  });

  it('answers 404 not_found, leaking nothing, for songs a link does not show', async () => {
    for (const id of [
      processing,
      failed,
      external,
      deleted,
      'itunes:123',
      'not-a-uuid',
      '%3Cx%3E',
    ]) {
      for (const headers of [{}, listener.headers, artist.headers]) {
        const res = await get(`/api/share/songs/${id}`, headers);
        expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
        expect(res.json().error.code).toBe('not_found');
        expect(res.body).not.toMatch(/Pending|Broken|Remote|Soon Gone/);
        const preview = await get(`/api/share/songs/${id}/preview`, headers);
        expect(preview.statusCode).toBe(404);
      }
    }
  });

  it("shows a public playlist's ready songs to anyone, as a visitor's to a visitor", async () => {
    const visitor = await get(`/api/share/playlists/${publicList}`);
    expect(visitor.statusCode, visitor.body).toBe(200);
    const body = visitor.json<PlaylistBody>();
    expect(body).toMatchObject({
      full: false,
      id: publicList,
      name: 'Road <Trip> & "Friends"',
      owner: { id: listener.userId, name: 'Listener' },
    });
    // The processing and the failed song are left out.
    expect(body.songs.map((s) => s.id)).toEqual([songId]);
    expect(body.songs[0]!.file_url).toBeNull();
    expect(body.songs[0]!.preview_url).toBe(`/api/share/songs/${songId}/preview`);
    expect(visitor.body).not.toContain('/media/music/');

    const signedIn = await get(`/api/share/playlists/${publicList}`, other.headers);
    expect(signedIn.statusCode).toBe(200);
    const full = signedIn.json<PlaylistBody>();
    expect(full.full).toBe(true);
    expect(full.songs.map((s) => s.id)).toEqual([songId]);
    expect(full.songs[0]!.file_url).toMatch(/^\/media\/music\//);
  });

  it('answers 404 for a private playlist to everyone but its owner', async () => {
    for (const headers of [{}, other.headers, artist.headers]) {
      const res = await get(`/api/share/playlists/${privateList}`, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      expect(res.body).not.toContain('Secret Diary');
    }
    const own = await get(`/api/share/playlists/${privateList}`, listener.headers);
    expect(own.statusCode).toBe(200);
    expect(own.json<PlaylistBody>().name).toBe('Secret Diary');
    for (const id of ['nope', songId, '00000000-0000-4000-8000-000000000000']) {
      expect((await get(`/api/share/playlists/${id}`)).statusCode).toBe(404);
    }
  });

  it('makes the preview once for concurrent first requests: at most 30 s, stream-copied', async () => {
    const before = ffmpeg.clipRuns();
    const [a, b] = await Promise.all([
      get(`/api/share/songs/${songId}/preview`),
      get(`/api/share/songs/${songId}/preview`),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(ffmpeg.clipRuns() - before).toBe(1);
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    expect(a.headers['content-type']).toBe('audio/webm');
    expect(a.headers['cache-control']).toMatch(/^public/);
    expect(a.headers.etag).toBeTruthy();
    const seconds = decodedSeconds(a.rawPayload, scratch);
    expect(seconds).toBeGreaterThan(29);
    expect(seconds).toBeLessThanOrEqual(30.5);
    // A later request finds the stored clip: no run.
    const again = await get(`/api/share/songs/${songId}/preview`);
    expect(again.rawPayload.equals(a.rawPayload)).toBe(true);
    expect(ffmpeg.clipRuns() - before).toBe(1);
  });

  it('answers Range with 206, a conditional request with 304 and a range past the end with 416', async () => {
    const whole = await get(`/api/share/songs/${songId}/preview`);
    const size = whole.rawPayload.length;
    const part = await get(`/api/share/songs/${songId}/preview`, { range: 'bytes=10-99' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${size}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(10, 100))).toBe(true);
    const cached = await get(`/api/share/songs/${songId}/preview`, {
      'if-none-match': String(whole.headers.etag),
    });
    expect(cached.statusCode).toBe(304);
    const past = await get(`/api/share/songs/${songId}/preview`, { range: `bytes=${size + 5}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('keeps the clip through a reconciler pass and deletes it with its song', async () => {
    await get(`/api/share/songs/${songId}/preview`);
    const clips = () => storedFiles(ctx.env.dataDir).filter((f) => /\/30\.webm$/.test(f));
    expect(clips()).toHaveLength(1);
    const report = await ctx.reconciler.runOnce();
    expect(report.refused).toEqual([]);
    expect(clips()).toHaveLength(1);

    const song = await uploadSong(ctx, artist, { title: 'Brief' });
    await untilReady(song.id);
    expect((await get(`/api/share/songs/${song.id}/preview`)).statusCode).toBe(200);
    expect(clips()).toHaveLength(2);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/songs/${song.id}`,
      headers: artist.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(clips()).toHaveLength(1);
  });

  it('serves the embed page from the default web directory, built or not', async () => {
    const res = await get(`/embed/song/${songId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<script type="application/json" id="canto-embed-data">');
    expect(res.body).toContain('<title>Long &amp; &quot;Quoted&quot; &lt;Song&gt; · ');
    expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
  });

  describe('oEmbed', () => {
    const oembed = (query: Record<string, string>) =>
      get(`/api/oembed?${new URLSearchParams(query)}`);

    it("answers a rich JSON embed for this server's song links", async () => {
      for (const url of [`${PUBLIC_URL}/song/${songId}`, `${PUBLIC_URL}/embed/song/${songId}`]) {
        const res = await oembed({ url, format: 'json' });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({
          type: 'rich',
          version: '1.0',
          provider_name: 'Canto',
          provider_url: `${PUBLIC_URL}/`,
          title: 'Long & "Quoted" <Song> by Zoë "The" <Artist>',
          author_name: 'Zoë "The" <Artist>',
          author_url: `${PUBLIC_URL}/profile/${artist.userId}`,
          height: 152,
        });
        // The cover (300 px square) scaled to fit 300, with its size, fetchable without a session.
        const thumb = res.json<{ thumbnail_url: string }>().thumbnail_url;
        expect(thumb).toMatch(
          new RegExp(`^${PUBLIC_URL}/media/cover-art/[0-9a-f-]{36}/300\\.jpg$`),
        );
        expect(res.json()).toMatchObject({ thumbnail_width: 300, thumbnail_height: 300 });
        const image = await get(thumb.slice(PUBLIC_URL.length));
        expect(image.statusCode).toBe(200);
        expect(image.headers['content-type']).toBe('image/jpeg');
        const { html } = res.json<{ html: string }>();
        expect(html).toContain(`src="${PUBLIC_URL}/embed/song/${songId}"`);
        expect(html).toContain('height="152"');
        expect(html).toContain('width="100%"');
        // The title is escaped inside the attribute.
        expect(html).toContain('title="Long &amp; &quot;Quoted&quot; &lt;Song&gt; by');
      }
    });

    it('respects maxwidth and maxheight, and embeds a public playlist taller', async () => {
      const res = await oembed({
        url: `${PUBLIC_URL}/playlist/${publicList}`,
        maxwidth: '300',
        maxheight: '200',
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ width: number; height: number; html: string; title: string }>();
      expect(body).toMatchObject({ width: 300, height: 200, title: 'Road <Trip> & "Friends"' });
      expect(body.html).toContain('width="300"');
      expect(body.html).toContain('height="200"');
      const tall = await oembed({ url: `${PUBLIC_URL}/playlist/${publicList}` });
      expect(tall.json<{ height: number }>().height).toBe(352);
    });

    it('answers 404 for foreign, unknown or private items and 501 for xml', async () => {
      const notFound = [
        `https://evil.example/song/${songId}`,
        `http://canto.example/song/${songId}`,
        `${PUBLIC_URL}/playlist/${privateList}`,
        `${PUBLIC_URL}/song/${processing}`,
        `${PUBLIC_URL}/song/${external}`,
        `${PUBLIC_URL}/profile/${artist.userId}`,
        `${PUBLIC_URL}/song/${songId}/extra`,
        'not a url',
      ];
      for (const url of notFound) {
        const res = await oembed({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('Secret Diary');
      }
      const xml = await oembed({ url: `${PUBLIC_URL}/song/${songId}`, format: 'xml' });
      expect(xml.statusCode).toBe(501);
      expect(xml.json().error.code).toBe('format_not_implemented');
      expect((await get('/api/oembed')).statusCode).toBe(400);
    });
  });
});
