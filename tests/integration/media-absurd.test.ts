import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ffmpegPackage from '@ffmpeg-installer/ffmpeg';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tmpRoot } from '../helpers/db-templates.ts';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import {
  makeUser,
  makeWav,
  multipart,
  rows,
  storedFiles,
  type Part,
  type TestUser,
} from './songs-helpers.ts';

// docs/decisions/0006, "Bad bytes": an upload's duration comes from decoding it with ffmpeg; a file
// whose length is absurd (beyond 4 h, a header that lies, a sample rate no audio has) or that does
// not decode is refused with 422 and the spec's upload message, storing nothing; and no error body
// names a server path.

const AUDIO_INVALID =
  'Music file validation failed. Please ensure you are uploading a valid audio file.';

/** Runs the real ffmpeg to make test media (the same binary the app decodes with). */
function ffmpegMake(out: string, ...args: string[]): Buffer {
  execFileSync(ffmpegPackage.path, ['-v', 'error', '-nostdin', ...args, '-y', out]);
  return fs.readFileSync(out);
}

/** A 3 s 44.1 kHz tone as MP3; LAME writes an Info (Xing) frame with the frame count. */
function toneMp3(dir: string): Buffer {
  const file = path.join(dir, 'tone.mp3');
  return ffmpegMake(
    file,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=3:sample_rate=44100',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
  );
}

/** The MP3 with its Xing header rewritten to claim `frames` frames. */
function withXingFrames(mp3: Buffer, frames: number): Buffer {
  const out = Buffer.from(mp3);
  let at = out.indexOf('Info');
  if (at < 0) at = out.indexOf('Xing');
  if (at < 0) throw new Error('no Xing/Info frame');
  out.write('Xing', at, 'latin1');
  // Flags (4 bytes) then the frame count: the flags LAME wrote include "frames present".
  out.writeUInt32BE(frames, at + 8);
  return out;
}

/** A PCM WAV header claiming `sampleRate`, with `dataBytes` of silence. */
function wavAt(sampleRate: number, dataBytes: number, formatTag = 1): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(formatTag, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([h, Buffer.alloc(dataBytes, formatTag === 1 ? 0 : 0x5a)]);
}

// Made once for both databases.
const work = path.join(tmpRoot, `media-absurd-${process.pid}`);
let mp3: Buffer;
let longFlac: Buffer;
/** FFMPEG_PATH for the app: a wrapper that writes each call's arguments, then runs ffmpeg. */
const spy = path.join(work, 'ffmpeg-spy.sh');
const spyLog = path.join(work, 'ffmpeg-args.log');

beforeAll(() => {
  fs.mkdirSync(work, { recursive: true });
  mp3 = toneMp3(work);
  // 4 h 1 min of silence at 8 kHz: honest headers, a real file, and still too long.
  longFlac = ffmpegMake(
    path.join(work, 'long.flac'),
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=8000:cl=mono',
    '-t',
    '14460',
    '-c:a',
    'flac',
  );
  fs.writeFileSync(
    spy,
    `#!/bin/sh\nprintf '%s\\n' "--- call" "$@" >> '${spyLog}'\nexec '${ffmpegPackage.path}' "$@"\n`,
    { mode: 0o755 },
  );
  return () => fs.rmSync(work, { recursive: true, force: true });
});

describe.each(dbKinds)('absurd media on %s', (kind) => {
  const ctx = useTestApp(kind, { FFMPEG_PATH: spy });
  let artist: TestUser;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Absurd Media Artist');
  });

  const upload = (parts: Part[]) => {
    const { headers, payload } = multipart(parts);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
  };
  const audio = (data: Buffer, filename: string): Part[] => [
    { name: 'file', filename, contentType: 'application/octet-stream', data },
  ];
  const songCount = async () =>
    Number((await rows<{ n: number }>(ctx, sql`select count(*)::int as n from songs`))[0]!.n);

  /** No server path in an error body: not DATA_DIR, not the temp directory, not a temp name. */
  function expectNoPath(body: string) {
    for (const fragment of [
      ctx.env.dataDir,
      tmpRoot,
      '/tmp/',
      '.upload',
      path.sep + 'media' + path.sep,
    ])
      expect(body, `the body names "${fragment}"`).not.toContain(fragment);
  }

  async function expectRefused(parts: Part[], status: number, code: string, reason: string) {
    const before = { songs: await songCount(), files: storedFiles(ctx.env.dataDir) };
    const res = await upload(parts);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toEqual({
      code,
      message: AUDIO_INVALID,
      details: { field: 'file', reason },
    });
    expectNoPath(res.body);
    expect(await songCount()).toBe(before.songs);
    expect(storedFiles(ctx.env.dataDir)).toEqual(before.files);
  }

  it('stores the duration decoding measured, not the one the header claims', async () => {
    // music-metadata reads this MP3 as 3.03 s (it counts the encoder's padding); ffmpeg, 3.00 s.
    const res = await upload(audio(mp3, 'tone.mp3'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().duration).toBe(3);
    const [row] = await rows<{ duration_ms: number }>(
      ctx,
      sql`select duration_ms from songs where id = ${res.json().id}`,
    );
    expect(row!.duration_ms).toBe(3000);
  });

  it('refuses an MP3 whose Xing header claims 2^32 - 1 frames (it was a 500: duration_ms overflow)', async () => {
    await expectRefused(
      audio(withXingFrames(mp3, 2 ** 32 - 1), 'xing.mp3'),
      422,
      'unprocessable_media',
      'too_long',
    );
  });

  it('refuses an MP3 whose Xing header claims 87 minutes for 3 seconds of frames', async () => {
    await expectRefused(
      audio(withXingFrames(mp3, 200_000), 'liar.mp3'),
      422,
      'unprocessable_media',
      'duration_mismatch',
    );
  });

  it('refuses a 1 Hz WAV: 8 kB that claims 4,000 s', async () => {
    await expectRefused(
      audio(wavAt(1, 8000), 'onehz.wav'),
      422,
      'unprocessable_media',
      'sample_rate',
    );
  });

  it('refuses a real file longer than 4 hours', async () => {
    await expectRefused(audio(longFlac, 'long.flac'), 422, 'unprocessable_media', 'too_long');
  });

  it('refuses a WAV whose codec ffmpeg cannot decode, although its header parses', async () => {
    await expectRefused(
      audio(wavAt(8000, 16_000, 0x9999), 'codec.wav'),
      422,
      'unprocessable_media',
      'undecodable',
    );
  });

  it('refuses unparseable audio with 415 and no path in the body (the parser names the file)', async () => {
    const id3Junk = Buffer.concat([
      Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x10', 'latin1'),
      Buffer.alloc(300, 0x41),
    ]);
    await expectRefused(audio(id3Junk, 'junk.mp3'), 415, 'unsupported_media', 'parse');
    const html = Buffer.from('<!doctype html><p>not audio</p>');
    await expectRefused(audio(html, 'page.mp3'), 415, 'unsupported_media', 'signature');
  });

  it('runs ffmpeg (FFMPEG_PATH) with -nostdin on the server temp file, never the client file name', async () => {
    fs.rmSync(spyLog, { force: true });
    const res = await upload(audio(makeWav(1), 'x; touch pwned $(id).wav'));
    expect(res.statusCode, res.body).toBe(201);
    const calls = fs.readFileSync(spyLog, 'utf8').split('--- call\n').filter(Boolean);
    expect(calls).toHaveLength(1);
    const args = calls[0]!.trim().split('\n');
    expect(args).toContain('-nostdin');
    expect(args.slice(args.indexOf('-f'), args.indexOf('-f') + 2)).toEqual(['-f', 'wav']);
    const input = args[args.indexOf('-i') + 1]!;
    expect(input).toMatch(new RegExp(`^file:${ctx.env.dataDir}/tmp/[0-9a-f-]{36}\\.upload$`));
    expect(calls[0]).not.toContain('pwned');
    expect(storedFiles(ctx.env.dataDir).filter((f) => f.startsWith('tmp/'))).toEqual([]);
  });

  it(
    'still takes a 99 MB WAV (20 min at 44.1 kHz), decoded in full',
    { timeout: 60_000 },
    async () => {
      const big = wavAt(44_100, 1180 * 88_200); // 16-bit mono silence
      expect(big.length).toBeGreaterThan(99 * 1024 * 1024);
      const started = performance.now();
      const res = await upload(audio(big, 'big.wav'));
      const ms = performance.now() - started;
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().duration).toBe(1180);
      console.info(
        `[media-absurd] ${kind}: a ${(big.length / 2 ** 20).toFixed(1)} MiB WAV uploaded in ${ms.toFixed(0)} ms`,
      );
    },
  );
});
