import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SongDto } from '../../src/contracts/songs.contract.ts';
import { waveformDocument } from '../../src/contracts/songs.contract.ts';
import { tmpRoot } from '../helpers/db-templates.ts';
import { killServerChildren, startServerChild } from '../helpers/server-child.ts';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db.ts';
import { ensureAccountWithRole } from '../helpers/offline-accounts.ts';
import type { CrashStep } from '../../src/server/storage/crash-point.ts';
import { useTestApp, type TestContext } from '../helpers/test-app.ts';
import {
  makePng,
  makeUser,
  multipart,
  rows,
  storedFiles,
  type TestUser,
  uploadSong,
} from './songs-helpers.ts';

/*
 * The media pipeline (ADR 0014) and its faults: an upload is playable at once from its original;
 * a job makes Opus and AAC renditions, the loudness and the waveform from it in one ffmpeg
 * run; the song is then 'ready' with all of them, signed. A job that fails for good leaves
 * it 'failed' (never stuck), and the artist may ask again. Deleting a song deletes every
 * file it had. The worker runs in the test's process (the app's own queue, started here).
 */

const AUDIO_INVALID =
  'Music file validation failed. Please ensure you are uploading a valid audio file.';

const work = path.join(tmpRoot, `media-pipeline-${process.pid}`);
/** FFMPEG_PATH: the real ffmpeg, unless a control file in `control` asks for a fault. */
const wrapper = path.join(work, 'ffmpeg-faulty.sh');
const control = path.join(work, 'control');
const ctl = (name: 'kill-slow' | 'fail' | 'count', on = true) => {
  const file = path.join(control, name);
  if (on) fs.writeFileSync(file, '');
  else fs.rmSync(file, { force: true });
};
const transcodeCalls = () => {
  const log = path.join(control, 'calls.log');
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').length : 0;
};

function ffmpegMake(out: string, ...args: string[]): Buffer {
  execFileSync(ffmpegPackage.path, ['-v', 'error', '-nostdin', ...args, '-y', out]);
  return fs.readFileSync(out);
}

let stereo: Buffer;
let taggedMp3: Buffer;
let cutFlac: (claimedSeconds: number) => Buffer;
let tenHours: Buffer;

beforeAll(async () => {
  fs.mkdirSync(control, { recursive: true });
  // Only transcoding runs (they use ebur128) are tampered with; upload checks run as is.
  // kill-slow: the run is slowed to real time (-re) and its pid written, for the test to
  // SIGKILL it mid-way; fail: ffmpeg reports an error as on a file that stops decoding.
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh
case "$*" in
  *ebur128*)
    echo run >> '${control}/calls.log'
    if [ -f '${control}/fail' ]; then echo 'Invalid data found when processing input' >&2; exit 1; fi
    if [ -f '${control}/kill-slow' ]; then echo $$ > '${control}/pid'; exec '${ffmpegPackage.path}' -re "$@"; fi
    ;;
esac
exec '${ffmpegPackage.path}' "$@"
`,
    { mode: 0o755 },
  );
  // 2 s of 44.1 kHz stereo: a 440 Hz sine peaking at -12 dBFS on both channels (-12.7 LUFS).
  stereo = ffmpegMake(
    path.join(work, 'stereo.wav'),
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2:sample_rate=44100',
    '-af',
    'volume=2,pan=stereo|c0=c0|c1=c0',
    '-c:a',
    'pcm_s16le',
  );
  // An MP3 with a cover picture stream and absurd tags: a 5,000-character title full of
  // control characters and right-to-left marks, a genre of 300 characters, a lyrics tag.
  const cover = path.join(work, 'cover.png');
  fs.writeFileSync(cover, await makePng(64, 64));
  taggedMp3 = ffmpegMake(
    path.join(work, 'tagged.mp3'),
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=2:sample_rate=44100',
    '-i',
    cover,
    '-map',
    '0:a',
    '-map',
    '1:v',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '96k',
    '-c:v',
    'png',
    '-disposition:v',
    'attached_pic',
    '-id3v2_version',
    '3',
    '-metadata',
    `title=${'\u202eAbsurd\u0007'.repeat(600)}`,
    '-metadata',
    `genre=${'G'.repeat(300)}`,
    '-metadata',
    `lyrics=${'la '.repeat(20_000)}`,
  );
  // 10 hours of real silence, 8 kHz mono FLAC: ~7 MB, well within the 100 MB limit.
  tenHours = ffmpegMake(
    path.join(work, 'ten-hours.flac'),
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=8000:cl=mono',
    '-t',
    '36000',
    '-c:a',
    'flac',
  );
  // 0.1 s of real FLAC frames, then 40 kB of noise; STREAMINFO claims `seconds`.
  const short = ffmpegMake(
    path.join(work, 'short.flac'),
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=0.1:sample_rate=44100',
    '-c:a',
    'flac',
  );
  const noise = Buffer.alloc(40_000);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 251;
  cutFlac = (seconds) => {
    const file = Buffer.concat([short, noise]);
    // STREAMINFO's 36-bit sample count: the low 4 bits of byte 21, then bytes 22-25.
    const total = seconds * 44100;
    file[21] = (file[21]! & 0xf0) | Math.floor(total / 2 ** 32);
    file.writeUInt32BE(total % 2 ** 32, 22);
    return file;
  };
  return () => fs.rmSync(work, { recursive: true, force: true });
});

/** The song as its artist's client sees it. */
async function getSong(ctx: TestContext, user: TestUser, id: string): Promise<SongDto> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/songs/${id}`,
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SongDto;
}

/** Waits (real time: the worker polls every 50 ms) until the song leaves 'processing'. */
async function settled(ctx: TestContext, user: TestUser, id: string, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const song = await getSong(ctx, user, id);
    if (song.status !== 'processing') return song;
    if (Date.now() > until) throw new Error(`song ${id} still processing after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function jobOf(ctx: TestContext, songId: string) {
  const [job] = await rows<{ id: string; state: string; attempts: number; run_at: string }>(
    ctx,
    sql`select id::text as id, state::text as state, attempts, run_at::text as run_at
        from jobs where name = 'songs.media' and payload->>'songId' = ${songId}
        order by id desc limit 1`,
  );
  return job;
}

/** Moves the app's clock past any retry's backoff, then waits for the job to be claimed again. */
async function nextAttempt(ctx: TestContext, songId: string, attempts: number) {
  const until = Date.now() + 20_000;
  for (;;) {
    ctx.clock.advance(10_000);
    const job = await jobOf(ctx, songId);
    if (job && job.attempts >= attempts) return job;
    if (Date.now() > until) throw new Error(`no attempt ${attempts}: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** EBML variable-length integer at `at`: its length and value (marker bit kept for IDs). */
function vint(buf: Buffer, at: number, keepMarker: boolean): { length: number; value: number } {
  const first = buf[at]!;
  const length = Math.clz32(first) - 23;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + buf[at + i]!;
  return { length, value };
}

/** The names of a WebM file's top-level Segment children, in file order. */
function webmSegmentChildren(buf: Buffer): string[] {
  const names: Record<number, string> = {
    0x114d9b74: 'SeekHead',
    0x1549a966: 'Info',
    0x1654ae6b: 'Tracks',
    0x1c53bb6b: 'Cues',
    0x1f43b675: 'Cluster',
    0x1254c367: 'Tags',
    0xec: 'Void',
  };
  const element = (at: number) => {
    const id = vint(buf, at, true);
    const size = vint(buf, at + id.length, false);
    return { id: id.value, body: at + id.length + size.length, size: size.value };
  };
  const header = element(0);
  expect(header.id).toBe(0x1a45dfa3); // EBML
  const segment = element(header.body + header.size);
  expect(segment.id).toBe(0x18538067);
  const children: string[] = [];
  for (let at = segment.body; at < buf.length && children.length < 64;) {
    const child = element(at);
    children.push(names[child.id] ?? child.id.toString(16));
    at = child.body + child.size;
  }
  return children;
}

const musicFiles = (ctx: TestContext) =>
  storedFiles(ctx.env.dataDir).filter((f) => f.startsWith(`media${path.sep}music`));

describe.each(dbKinds)('media pipeline on %s', (kind) => {
  const ctx = useTestApp(kind, {
    FFMPEG_PATH: wrapper,
    JOB_POLL_INTERVAL_MS: '50',
    MEDIA_WORKERS: '1',
  });
  let artist: TestUser;
  let listener: TestUser;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Pipeline Artist');
    listener = await makeUser(ctx, 'listener', 'Pipeline Listener');
    await ctx.jobs.start();
  });
  beforeEach(() => {
    for (const f of fs.readdirSync(control)) fs.rmSync(path.join(control, f), { force: true });
  });

  it('an upload plays its original at once, then gets Opus and AAC renditions, loudness and a waveform', async () => {
    const uploaded = (await uploadSong(ctx, artist, {
      title: 'Pipeline Song',
      audio: stereo,
    })) as unknown as SongDto;
    // Visible and playable at once: the original is the fallback while processing.
    expect(uploaded.status).toBe('processing');
    expect(uploaded.file_url).toMatch(/^\/media\/music\/[0-9a-f-]{36}\.wav\?e=\d+&s=/);
    expect(uploaded.renditions).toEqual([]);
    expect(uploaded.loudness).toBeNull();
    expect(uploaded.waveform_url).toBeNull();

    const song = await settled(ctx, artist, uploaded.id);
    expect(song.status).toBe('ready');
    expect(song.file_url).toBe(uploaded.file_url);
    expect(
      song.renditions.map(({ codec, bitrate_kbps, mime, duration }) => ({
        codec,
        bitrate_kbps,
        mime,
        duration,
      })),
    ).toEqual([
      { codec: 'opus', bitrate_kbps: 96, mime: 'audio/webm; codecs=opus', duration: 2 },
      { codec: 'aac', bitrate_kbps: 128, mime: 'audio/mp4; codecs=mp4a.40.2', duration: 2 },
      { codec: 'opus', bitrate_kbps: 160, mime: 'audio/webm; codecs=opus', duration: 2 },
    ]);

    // A listener gets the same signed URLs; each serves exactly `bytes`, with ranges and ETags.
    const heard = await getSong(ctx, listener, uploaded.id);
    expect(heard.renditions).toEqual(song.renditions);
    for (const r of song.renditions) {
      expect(r.url).toMatch(
        /^\/media\/music\/[0-9a-f-]{36}\.(webm|m4a)\?e=\d+&s=[\w-]{43}&n=[\w-]{22}$/,
      );
      const full = await ctx.app.inject({ method: 'GET', url: r.url });
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe(r.codec === 'opus' ? 'audio/webm' : 'audio/mp4');
      expect(full.rawPayload.length).toBe(r.bytes);
      expect(r.bytes).toBeGreaterThan(1000);
      const head = full.rawPayload.subarray(0, 8).toString('latin1');
      if (r.codec === 'opus') {
        // WebM with its duration and seek index ahead of the audio: one request to start
        // and one per seek (docs/decisions/0014).
        const children = webmSegmentChildren(full.rawPayload);
        expect(children.indexOf('Cues')).toBeGreaterThan(-1);
        expect(children.indexOf('Cues')).toBeLessThan(children.indexOf('Cluster'));
        expect(children.indexOf('Info')).toBeLessThan(children.indexOf('Cluster'));
      } else expect(head.slice(4)).toBe('ftyp');
      const part = await ctx.app.inject({
        method: 'GET',
        url: r.url,
        headers: { range: 'bytes=0-99' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.length).toBe(100);
      const again = await ctx.app.inject({
        method: 'GET',
        url: r.url,
        headers: { 'if-none-match': String(full.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      // Unsigned, refused like any audio.
      expect((await ctx.app.inject({ method: 'GET', url: r.url.split('?')[0]! })).statusCode).toBe(
        403,
      );
    }
    // Opus at 160 kbit/s is bigger than at 96.
    expect(song.renditions[2]!.bytes).toBeGreaterThan(song.renditions[0]!.bytes);

    // Louder than -14 LUFS: the gain is negative (the true-peak limit is far).
    const loudness = song.loudness!;
    expect(loudness.integrated_lufs).toBeCloseTo(-12.7, 0);
    expect(loudness.true_peak_dbtp).toBeCloseTo(-12, 0);
    expect(loudness.gain_db).toBeCloseTo(-14 - loudness.integrated_lufs, 2);

    expect(song.waveform_url).toMatch(/^\/media\/music\/[0-9a-f-]{36}\.json\?e=\d+&s=/);
    const wave = await ctx.app.inject({ method: 'GET', url: song.waveform_url! });
    expect(wave.statusCode).toBe(200);
    expect(wave.headers['content-type']).toBe('application/json');
    const doc = waveformDocument.parse(wave.json());
    expect(doc.buckets).toBe(doc.peaks.length);
    expect(doc.buckets).toBeGreaterThanOrEqual(990);
    expect(doc.buckets).toBeLessThanOrEqual(1010);
    // A sine peaking at 0.25 of full scale: 0.25 · 255 ≈ 64 in every bucket.
    const middle = doc.peaks.slice(100, 900);
    expect(Math.min(...middle)).toBeGreaterThan(55);
    expect(Math.max(...middle)).toBeLessThan(70);
  });

  it('lists carry the renditions too, sorted by bitrate, for every song', async () => {
    const a = await uploadSong(ctx, artist, { title: 'Listed One', audio: stereo });
    await settled(ctx, artist, a.id);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/songs?limit=50',
      headers: listener.headers,
    });
    const listed = (res.json() as { songs: SongDto[] }).songs.find((s) => s.id === a.id)!;
    expect(listed.status).toBe('ready');
    expect(listed.renditions.map((r) => r.bitrate_kbps)).toEqual([96, 128, 160]);
    expect(listed.loudness).not.toBeNull();
    expect(listed.waveform_url).not.toBeNull();
  });

  it('deleting a song deletes its original, every rendition and the waveform', async () => {
    const before = musicFiles(ctx);
    const song = await uploadSong(ctx, artist, { title: 'Doomed', audio: stereo });
    await settled(ctx, artist, song.id);
    const added = musicFiles(ctx).filter((f) => !before.includes(f));
    // original + 3 renditions + waveform
    expect(added.map((f) => path.extname(f)).sort()).toEqual([
      '.json',
      '.m4a',
      '.wav',
      '.webm',
      '.webm',
    ]);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/songs/${song.id}`,
      headers: artist.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(musicFiles(ctx)).toEqual(before);
    const left = await rows(ctx, sql`select 1 from song_renditions where song_id = ${song.id}`);
    expect(left).toEqual([]);
  });

  it('a song deleted while its job runs leaves no file behind', async () => {
    const before = musicFiles(ctx);
    ctl('kill-slow'); // -re: the run takes the song's 2 s
    const song = await uploadSong(ctx, artist, { title: 'Deleted Mid-Job', audio: stereo });
    const pidFile = path.join(control, 'pid');
    const until = Date.now() + 10_000;
    while (!fs.existsSync(pidFile) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/songs/${song.id}`,
      headers: artist.headers,
    });
    expect(res.statusCode).toBe(204);
    const wait = Date.now() + 15_000;
    while ((await jobOf(ctx, song.id))?.state !== 'done' && Date.now() < wait)
      await new Promise((r) => setTimeout(r, 50));
    expect((await jobOf(ctx, song.id))?.state).toBe('done');
    expect(musicFiles(ctx)).toEqual(before);
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);
  });

  it('ffmpeg killed mid-job: the job runs again and the song ends ready', async () => {
    ctl('kill-slow');
    const song = await uploadSong(ctx, artist, { title: 'Killed Encoder', audio: stereo });
    const pidFile = path.join(control, 'pid');
    const until = Date.now() + 10_000;
    while (!fs.existsSync(pidFile) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    ctl('kill-slow', false);
    await new Promise((r) => setTimeout(r, 300)); // mid-way through its 2 s
    process.kill(pid, 'SIGKILL');
    await nextAttempt(ctx, song.id, 2);
    const done = await settled(ctx, artist, song.id);
    expect(done.status).toBe('ready');
    expect(done.renditions).toHaveLength(3);
    expect(transcodeCalls()).toBe(2);
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);
  });

  it('a job that keeps failing ends failed (never stuck); the artist retries and it becomes ready', async () => {
    const before = musicFiles(ctx);
    ctl('fail');
    const song = await uploadSong(ctx, artist, { title: 'Unlucky', audio: stereo });
    // Five attempts, the clock moved past each backoff.
    for (let attempt = 2; attempt <= 5; attempt++) await nextAttempt(ctx, song.id, attempt);
    const failed = await settled(ctx, artist, song.id);
    expect(failed.status).toBe('failed');
    expect((await jobOf(ctx, song.id))?.state).toBe('dead');
    // Still playable from its original; nothing of the failed attempts is left.
    expect(failed.file_url).not.toBeNull();
    expect(failed.renditions).toEqual([]);
    expect(musicFiles(ctx).filter((f) => !before.includes(f))).toHaveLength(1);
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp'))).toEqual([]);

    // Only its artist may retry.
    const other = await makeUser(ctx, 'artist', 'Other Artist');
    const stranger = await ctx.app.inject({
      method: 'POST',
      url: `/api/songs/${song.id}/reprocess`,
      headers: other.headers,
    });
    expect(stranger.statusCode).toBe(403);
    const byListener = await ctx.app.inject({
      method: 'POST',
      url: `/api/songs/${song.id}/reprocess`,
      headers: listener.headers,
    });
    expect(byListener.statusCode).toBe(403);

    ctl('fail', false);
    const retry = await ctx.app.inject({
      method: 'POST',
      url: `/api/songs/${song.id}/reprocess`,
      headers: artist.headers,
    });
    expect(retry.statusCode, retry.body).toBe(202);
    expect((retry.json() as SongDto).status).toBe('processing');
    const ready = await settled(ctx, artist, song.id);
    expect(ready.status).toBe('ready');
    expect(ready.renditions).toHaveLength(3);
  });

  it('reprocess is a 409 unless the song failed, and changes nothing', async () => {
    const song = await uploadSong(ctx, artist, { title: 'Fine Song', audio: stereo });
    const first = await ctx.app.inject({
      method: 'POST',
      url: `/api/songs/${song.id}/reprocess`,
      headers: artist.headers,
    });
    const jobs = await rows(ctx, sql`select 1 from jobs where payload->>'songId' = ${song.id}`);
    expect(jobs).toHaveLength(1);
    // processing (the job may already be done on a fast machine: then it is ready)
    expect(first.statusCode).toBe(409);
    expect(first.json().error.code).toBe('duplicate');
    await settled(ctx, artist, song.id);
    const second = await ctx.app.inject({
      method: 'POST',
      url: `/api/songs/${song.id}/reprocess`,
      headers: artist.headers,
    });
    expect(second.statusCode).toBe(409);
    expect((await getSong(ctx, artist, song.id)).status).toBe('ready');
    const missing = await ctx.app.inject({
      method: 'POST',
      url: `/api/songs/00000000-0000-4000-8000-000000000000/reprocess`,
      headers: artist.headers,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('an MP3 with a cover-art stream and absurd tags: renditions carry the audio only, no tags', async () => {
    const { headers, payload } = multipart([
      { name: 'file', filename: 'tagged.mp3', contentType: 'audio/mpeg', data: taggedMp3 },
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const song = await settled(ctx, artist, (res.json() as SongDto).id);
    expect(song.status).toBe('ready');
    for (const r of song.renditions) {
      const file = path.join(work, `out-${r.bitrate_kbps}${r.codec === 'aac' ? '.m4a' : '.webm'}`);
      fs.writeFileSync(file, (await ctx.app.inject({ method: 'GET', url: r.url })).rawPayload);
      // It decodes (throws otherwise)…
      execFileSync(ffmpegPackage.path, ['-v', 'error', '-i', file, '-f', 'null', '-'], {
        stdio: 'pipe',
      });
      const info = (() => {
        try {
          execFileSync(ffmpegPackage.path, ['-hide_banner', '-i', file], { stdio: 'pipe' });
          return '';
        } catch (error) {
          // ffmpeg -i without an output exits 1 after describing the input.
          return String((error as { stderr: Buffer }).stderr);
        }
      })();
      expect(info.match(/Stream #/g)).toHaveLength(1);
      expect(info).not.toMatch(/Video:/);
      expect(info).not.toContain('Absurd');
      expect(info).not.toContain('la la');
    }
  });

  it('a file that decodes for 0.1 s and then fails: its 0.1 s become a song that ends ready', async () => {
    // ffmpeg decodes the good frames and skips the noise; the claim (3 s) is within the
    // 5 s tolerance of upload checks, so the upload stands as what decodes.
    const { headers, payload } = multipart([
      { name: 'file', filename: 'cut.flac', contentType: 'audio/flac', data: cutFlac(3) },
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as SongDto).duration).toBe(0.1);
    const song = await settled(ctx, artist, (res.json() as SongDto).id);
    expect(song.status).toBe('ready');
    expect(song.renditions.map((r) => r.duration)).toEqual([0.1, 0.1, 0.1]);
    const wave = await ctx.app.inject({ method: 'GET', url: song.waveform_url! });
    expect(waveformDocument.parse(wave.json()).buckets).toBeGreaterThan(700);
  });

  /** Uploads one FLAC; expects the spec's 422 with `reason`, and no file or job left behind. */
  async function expectRefusedFlac(filename: string, data: Buffer, reason: string) {
    const before = {
      files: storedFiles(ctx.env.dataDir),
      jobs: await rows(ctx, sql`select id from jobs`),
    };
    const { headers, payload } = multipart([
      { name: 'file', filename, contentType: 'audio/flac', data },
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ message: AUDIO_INVALID, details: { reason } });
    expect(storedFiles(ctx.env.dataDir)).toEqual(before.files);
    expect(await rows(ctx, sql`select id from jobs`)).toEqual(before.jobs);
  }

  it('a 10-hour silent file within 100 MB is refused at upload by the 4 h bound, before any decode or job', async () => {
    expect(tenHours.length).toBeLessThan(100 * 1024 * 1024);
    const calls = transcodeCalls();
    const started = Date.now();
    await expectRefusedFlac('ten.flac', tenHours, 'too_long');
    // The header's claim decides: 10 hours are never decoded (that would take minutes).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(transcodeCalls()).toBe(calls);
  });

  it('the same file claiming 30 s is refused at upload, leaving nothing and queueing no job', async () => {
    await expectRefusedFlac('cut.flac', cutFlac(30), 'duration_mismatch');
  });
});

/*
 * The real server (src/server/host.ts through tests/helpers/server-entry.ts, whose worker runs
 * the job) SIGKILLs itself once a media job has stored every output but before the song points
 * at them (crash point media:stored). Restarted on the same DATA_DIR and database, the job's
 * lease expires, it runs again under the same names, and what is stored is exactly what the
 * rows name: no orphan rendition, no temp file. The reconciler's age is an hour here, so it
 * is the job's own naming, not a sweep, that leaves nothing behind.
 */
afterAll(() => killServerChildren());

function startServer(db: TestDatabase, crashAt?: CrashStep) {
  return startServerChild(
    {
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.url ?? '',
      SECRET_KEY: 'media-crash-secret-key-media-crash-secret-key',
      PUBLIC_URL: 'http://canto.test',
      DEMO: '0',
      CANTO_DEV: '1',
      CATALOGUE_URL: 'http://127.0.0.1:9',
      MEDIA_SWEEP_AGE_SECONDS: '3600',
      JOB_LEASE_SECONDS: '1',
      JOB_POLL_INTERVAL_MS: '100',
    },
    { timeoutMs: 60_000, crashAt },
  );
}

const filesIn = (dir: string) =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isFile())
    : [];
const keyOf = (url: string) => url.split('?')[0]!.split('/').pop()!;

describe.each(dbKinds)('a server killed with -9 during a media job, on %s', (kind) => {
  let db: TestDatabase;
  const ARTIST = { email: 'media-crash@canto.test', password: 'crash-pass-123', displayName: 'MC' };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await ensureAccountWithRole(db.database, ARTIST, 'artist');
    // PGlite is one process at a time: the server child opens it from here on.
    if (kind === 'pglite') await db.database.close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('runs the job again after a restart and leaves exactly the files the rows name', async () => {
    const music = path.join(db.dataDir, 'media', 'music');
    const tmp = path.join(db.dataDir, 'tmp');
    const crashing = await startServer(db, 'media:transcoded');
    const signIn = await fetch(`${crashing.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ARTIST.email, password: ARTIST.password }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const form = new FormData();
    form.append('title', 'Crash Mid-Job');
    form.append('file', new Blob([new Uint8Array(stereo)], { type: 'audio/wav' }), 'c.wav');
    // The answer may or may not get out before the worker reaches the crash point.
    await fetch(`${crashing.url}/api/songs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).catch(() => null);
    expect(await crashing.exited).toBe('SIGKILL');
    // Killed after encoding: the original stored, the job's temp input and three encodings.
    expect(filesIn(music)).toHaveLength(1);
    expect(filesIn(tmp)).toHaveLength(4);

    // The next server runs the job again once its lease is over, and dies after storing the
    // outputs, before the song points at them.
    const again = await startServer(db, 'media:stored');
    expect(await again.exited).toBe('SIGKILL');
    expect(filesIn(music)).toHaveLength(5);
    expect(filesIn(tmp)).toEqual([]);

    const server = await startServer(db);
    try {
      const until = Date.now() + 60_000;
      let song: SongDto | undefined;
      for (;;) {
        const res = await fetch(`${server.url}/api/songs?limit=5`, {
          headers: { authorization: `Bearer ${token}` },
        });
        song = ((await res.json()) as { songs: SongDto[] }).songs[0];
        if (song?.status === 'ready' || Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(song?.status).toBe('ready');
      expect(song!.renditions).toHaveLength(3);
      const named = [song!.file_url!, song!.waveform_url!, ...song!.renditions.map((r) => r.url)];
      expect(filesIn(music).sort()).toEqual(named.map(keyOf).sort());
      expect(filesIn(tmp)).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);
});

describe.each(dbKinds)('a media job whose worker died on its last attempt, on %s', (kind) => {
  const ctx = useTestApp(kind, { JOB_POLL_INTERVAL_MS: '50' });

  it('is marked failed by whichever worker sees its lease expire', async () => {
    const artist = await makeUser(ctx, 'artist', 'Orphan Artist');
    const song = await uploadSong(ctx, artist, { title: 'Orphaned Job', audio: stereo });
    // As if a worker elsewhere had claimed it for its last attempt and died: no worker runs
    // here yet, so this one never starts the job itself.
    const { id } = (await jobOf(ctx, song.id))!;
    await ctx.db.database.db.execute(
      sql`update jobs set state = 'running', attempts = max_attempts,
            locked_by = 'dead-host:1:x',
            locked_until = ${new Date(ctx.clock.now().getTime() - 1000).toISOString()}::timestamptz
          where id = ${id}::bigint`,
    );
    await ctx.jobs.start();
    const failed = await settled(ctx, artist, song.id);
    expect(failed.status).toBe('failed');
    expect((await jobOf(ctx, song.id))?.state).toBe('dead');
    expect(failed.file_url).not.toBeNull();
  });
});

/*
 * Demo content goes through the same pipeline. The seed only enqueues (its songs
 * are 'processing' and playable from their originals when it returns, so the first start
 * does not wait for encoders); the worker then gives every demo song its renditions and
 * waveform in the background.
 */
describe.each(dbKinds)('demo songs through the pipeline on %s', (kind) => {
  const ctx = useTestApp(kind, { DEMO: '1', JOB_POLL_INTERVAL_MS: '50', MEDIA_WORKERS: '2' });

  it('seeds playable songs at once and processes them in the background', async () => {
    const { bootstrap } = await import('../../src/server/bootstrap.ts');
    const result = await bootstrap({
      env: ctx.env,
      database: ctx.db.database,
      log: ctx.app.log,
      accounts: ctx.accounts,
      roles: ctx.roles,
      profiles: ctx.profiles,
      storage: ctx.storage,
      jobs: ctx.jobs,
      demoSongSeconds: () => 1,
      print: () => {},
    });
    expect(result.demo?.songs).toBe(12);
    const statuses = async () =>
      rows<{ status: string; n: number }>(
        ctx,
        sql`select media_status::text as status, count(*)::int as n from songs group by 1`,
      );
    // Nothing was encoded inline: the worker has not started yet.
    expect(await statuses()).toEqual([{ status: 'processing', n: 12 }]);
    expect(
      await rows(ctx, sql`select 1 from jobs where name = 'songs.media' and state = 'queued'`),
    ).toHaveLength(12);

    await ctx.jobs.start();
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const s = await statuses();
      if (s.length === 1 && s[0]!.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await statuses()).toEqual([{ status: 'ready', n: 12 }]);
    const [counts] = await rows<{ renditions: number; waveforms: number; loud: number }>(
      ctx,
      sql`select (select count(*)::int from song_renditions) as renditions,
            (select count(*)::int from songs where waveform_key is not null) as waveforms,
            (select count(*)::int from songs where loudness_lufs is not null) as loud`,
    );
    expect(counts).toEqual({ renditions: 36, waveforms: 12, loud: 12 });

    // The demo show's feed is one podcast apps take: every episode enclosed as its AAC
    // rendition with the length of the bytes its URL answers, and an owner e-mail.
    const episodes = async () =>
      rows<{ n: number }>(
        ctx,
        sql`select count(*)::int as n from podcast_episodes where media_status <> 'ready'`,
      );
    while (Date.now() < until && (await episodes())[0]!.n > 0)
      await new Promise((r) => setTimeout(r, 100));
    const [show] = await rows<{ id: string }>(ctx, sql`select id from podcasts`);
    const feed = await ctx.app.inject({ url: `/api/podcasts/${show!.id}/feed.xml` });
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain(
      '<itunes:owner><itunes:name>The Night Owls</itunes:name><itunes:email>owls@canto.local</itunes:email></itunes:owner>',
    );
    const enclosures = [
      ...feed.body.matchAll(/<enclosure url="([^"]+)" length="(\d+)" type="([^"]+)"\/>/g),
    ];
    expect(enclosures).toHaveLength(3);
    for (const [, url, length, type] of enclosures) {
      expect(type).toBe('audio/x-m4a');
      const audio = await ctx.app.inject({ url: new URL(url!).pathname });
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toBe('audio/x-m4a');
      expect(audio.rawPayload.length).toBe(Number(length));
      // An MP4 file: its first box is `ftyp`.
      expect(audio.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
    }
  }, 120_000);
});
