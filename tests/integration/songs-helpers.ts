import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { wavHeader } from '../../src/server/demo/synth.ts';
import type { TestContext } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';

export type TestUser = {
  userId: string;
  token: string;
  displayName: string;
  headers: { authorization: string };
};

export async function rows<T>(ctx: TestContext, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await ctx.db.database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A signed-up user; roles are granted in the database, where the access policy reads them. */
export async function makeUser(
  ctx: TestContext,
  role: 'listener' | 'artist' | 'pending_artist' = 'listener',
  displayName = 'Test User',
): Promise<TestUser> {
  const { res } = await signUp(ctx.app, {
    display_name: displayName,
    is_artist: role === 'pending_artist',
  });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.body}`);
  const body = res.json();
  if (role === 'artist') {
    await ctx.db.database.db.execute(
      sql`insert into user_roles (user_id, role) values (${body.user.id}, 'artist')`,
    );
  }
  return {
    userId: body.user.id,
    token: body.access_token,
    displayName,
    headers: { authorization: `Bearer ${body.access_token}` },
  };
}

/** A real 16-bit PCM mono WAV: a 440 Hz tone of `seconds`, with an optional RIFF INFO title tag. */
export function makeWav(seconds: number, sampleRate = 8000, tagTitle?: string): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12000), i * 2);
  }
  const header = wavHeader(data.length, sampleRate);
  if (!tagTitle) return Buffer.concat([header, data]);
  // LIST/INFO with INAM (title), padded to an even length as RIFF requires.
  let name = Buffer.from(`${tagTitle}\0`, 'latin1');
  if (name.length % 2) name = Buffer.concat([name, Buffer.alloc(1)]);
  const inam = Buffer.concat([Buffer.from('INAM', 'latin1'), u32(name.length), name]);
  const list = Buffer.concat([
    Buffer.from('LIST', 'latin1'),
    u32(4 + inam.length),
    Buffer.from('INFO', 'latin1'),
    inam,
  ]);
  const wav = Buffer.concat([header, data, list]);
  wav.writeUInt32LE(wav.length - 8, 4);
  return wav;
}

function u32(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

export async function makePng(width = 1600, height = 1200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-marker' } } })
    .toBuffer();
}

export type Part =
  | { name: string; value: string }
  | {
      name: string;
      filename: string;
      contentType?: string;
      data: Buffer | (() => AsyncIterable<Buffer>);
    };

/**
 * A multipart/form-data body as a stream; file data may be a generator, so a 100 MB part
 * is produced lazily and never allocated.
 */
export function multipart(parts: Part[]): { headers: Record<string, string>; payload: Readable } {
  const boundary = `----canto${Math.random().toString(16).slice(2)}`;
  async function* body() {
    for (const p of parts) {
      if ('value' in p) {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`,
        );
      } else {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        );
        if (Buffer.isBuffer(p.data)) yield p.data;
        else for await (const chunk of p.data()) yield chunk;
        yield Buffer.from('\r\n');
      }
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Readable.from(body()),
  };
}

/** What an upload answers with, as the tests read it. */
export type UploadedSong = {
  id: string;
  title: string;
  file_url: string;
  cover_art_url: string | null;
};

/**
 * Uploads a song through the API as `user` (a 1 s WAV unless `audio` is given, a cover when
 * `cover` is) and expects 201.
 */
export async function uploadSong(
  ctx: TestContext,
  user: { headers: Record<string, string> },
  song: { title: string; audio?: Buffer; cover: Buffer },
): Promise<UploadedSong & { cover_art_url: string }>;
export async function uploadSong(
  ctx: TestContext,
  user: { headers: Record<string, string> },
  song: { title: string; audio?: Buffer; cover?: Buffer },
): Promise<UploadedSong>;
export async function uploadSong(
  ctx: TestContext,
  user: { headers: Record<string, string> },
  song: { title: string; audio?: Buffer; cover?: Buffer },
): Promise<UploadedSong> {
  const parts: Part[] = [
    { name: 'title', value: song.title },
    { name: 'file', filename: 'a.wav', contentType: 'audio/wav', data: song.audio ?? makeWav(1) },
  ];
  if (song.cover)
    parts.push({ name: 'cover', filename: 'c.png', contentType: 'image/png', data: song.cover });
  const { headers, payload } = multipart(parts);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/songs',
    headers: { ...headers, ...user.headers },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
  return res.json() as UploadedSong;
}

/** `size` bytes of a WAV-looking stream, generated 64 kB at a time. */
export function lazyBytes(
  size: number,
  head: Buffer = Buffer.alloc(0),
): () => AsyncIterable<Buffer> {
  return async function* () {
    const chunk = Buffer.alloc(64 * 1024, 7);
    let left = size;
    if (head.length) {
      yield head.subarray(0, Math.min(head.length, left));
      left -= Math.min(head.length, left);
    }
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
  };
}

/** Every file under `${dataDir}/media` and `${dataDir}/tmp`, as relative paths. */
export function storedFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(path.relative(dataDir, p));
    }
  };
  walk(path.join(dataDir, 'media'));
  walk(path.join(dataDir, 'tmp'));
  return out.sort();
}

export type FakeCatalogue = {
  url: string;
  requests: URL[];
  mode: 'ok' | 'error' | 'garbage' | 'hang';
  tracks: unknown[];
  close(): Promise<void>;
};

export function catalogueTrack(id: number, name: string, extra: Record<string, unknown> = {}) {
  return {
    wrapperType: 'track',
    kind: 'song',
    trackId: id,
    trackName: name,
    artistName: `Artist ${id}`,
    primaryGenreName: 'Pop',
    artworkUrl100: `https://is1.example.com/${id}/100x100bb.jpg`,
    previewUrl: `https://audio.example.com/${id}.m4a`,
    trackTimeMillis: 201_000,
    releaseDate: '2020-01-02T00:00:00Z',
    ...extra,
  };
}

/** A local stand-in for the iTunes Search API (`GET /search?term=&entity=song&limit=`). */
export async function startFakeCatalogue(): Promise<FakeCatalogue> {
  const fake = { requests: [] as URL[], mode: 'ok', tracks: [] as unknown[] } as FakeCatalogue;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    fake.requests.push(url);
    if (fake.mode === 'hang') return; // never answers: the provider's timeout must fire
    if (fake.mode === 'error') {
      res.writeHead(503).end('unavailable');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    if (fake.mode === 'garbage') {
      res.end('<html>not json');
      return;
    }
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const results = fake.tracks.slice(0, limit);
    res.end(JSON.stringify({ resultCount: results.length, results }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
