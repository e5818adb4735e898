/**
 * Subsonic stream bench (docs/decisions/0034): `/rest/stream?id=…&maxBitRate=96` of a song's
 * Opus 96 rendition against the web player's own path to the same file (its signed
 * `/media/music/<key>` URL, media lane included), on one Canto (MEDIA_OFFLOAD=none, Node
 * sending the bytes) on a throwaway PostgreSQL database, in the same run, with the same client
 * (wrk when installed, else autocannon). Each Subsonic request authenticates (apiKey: the
 * credentials held in memory after the first) and looks the song and its renditions up before
 * the bytes go; the media URL only checks its signature (remembered once verified).
 *
 * Rounds alternate the two paths (the median round counts). Rows (ratio = stream / media):
 * whole-file MB/s (a ~5 MB rendition, a seven-minute song at 96 kbit/s: what an app fetches
 * to play or cache a song), target ≥ 0.5; and 64 KB Range requests per second (a player's
 * seeks) and their p50 latency, which the web path answers in the media lane. The
 * log also gives ping's requests per second: the router's authentication alone, which
 * bounds what a stream can reach.
 *
 * Run alone: npx tsx bench/subsonic-stream.bench.ts (BENCH_CLIENT=autocannon forces it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import type { Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { createLocalStorage } from '../src/server/storage/local-storage.ts';
import { median, row, unavailable, type BenchRow, type Log } from './bench-kit.ts';
import { httpLoad, loadClient, type LoadResult } from './http-load.ts';
import { postgresReachable, withBenchPostgres } from './catalogue.bench.ts';

const FILE_SIZE = 5 * 1024 * 1024;
const RANGE_BYTES = 64 * 1024;
const RANGE_OFFSETS = Array.from({ length: 256 }, () =>
  crypto.randomInt(0, FILE_SIZE - RANGE_BYTES),
);
const rangeOf = (offset: number) => `bytes=${offset}-${offset + RANGE_BYTES - 1}`;
const CONNECTIONS = 8;
const SECONDS = 3;
const TARGET = 0.5;
const SECRET_KEY = 'bench-secret-key-bench-secret-key-0123456789';

type Path = 'media' | 'stream';
type Measure = LoadResult;

export async function subsonicStreamBench(
  options: { rounds?: number; log?: Log } = {},
): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 3;
  const log = options.log ?? (() => {});
  const client = loadClient();
  if (!(await postgresReachable())) return [unavailable('subsonic stream', 'no PostgreSQL server')];
  return withBenchPostgres((database) => streamRounds(database, rounds, log, client));
}

async function streamRounds(
  database: Database,
  rounds: number,
  log: Log,
  client: 'wrk' | 'autocannon',
): Promise<BenchRow[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-subsonic-'));
  let close: (() => Promise<void>) | undefined;
  try {
    const canto = await startCanto(root, database);
    close = canto.close;
    const base = `http://127.0.0.1:${canto.port}`;
    const urls: Record<Path, string> = {
      media: `${base}${canto.mediaUrl}`,
      stream: `${base}/rest/stream.view?${new URLSearchParams({
        id: canto.songId,
        maxBitRate: '96',
        apiKey: canto.apiKey,
        v: '1.16.1',
        c: 'bench',
      })}`,
    };

    // Both paths answer the same bytes, whole and in part, before anything is timed.
    const expected = canto.bytes.subarray(RANGE_OFFSETS[0]!, RANGE_OFFSETS[0]! + RANGE_BYTES);
    for (const [name, url] of Object.entries(urls)) {
      const part = await fetch(url, { headers: { range: rangeOf(RANGE_OFFSETS[0]!) } });
      const body = Buffer.from(await part.arrayBuffer());
      if (part.status !== 206 || !body.equals(expected))
        throw new Error(`${name} answered ${part.status} with ${body.length} other bytes`);
      const whole = await fetch(url);
      const all = Buffer.from(await whole.arrayBuffer());
      if (whole.status !== 200 || !all.equals(canto.bytes))
        throw new Error(`${name} answered ${whole.status} with ${all.length} bytes for the file`);
    }

    log(`client: ${client}, ${CONNECTIONS} connections, ${SECONDS} s per measurement`);
    const rangeHeaders = RANGE_OFFSETS.map(rangeOf);
    const measure = (url: string, ranges: boolean) =>
      httpLoad(url, {
        client,
        connections: CONNECTIONS,
        seconds: SECONDS,
        ranges: ranges ? rangeHeaders : undefined,
      });
    for (const url of Object.values(urls)) await measure(url, true); // warm-up

    const run = async (ranges: boolean) => {
      const out: Record<Path, Measure[]> = { media: [], stream: [] };
      for (let i = 0; i < rounds; i++) {
        const order: Path[] = i % 2 ? ['stream', 'media'] : ['media', 'stream'];
        for (const p of order) out[p].push(await measure(urls[p], ranges));
      }
      return out;
    };
    const ranges = await run(true);
    const files = await run(false);
    const fmt = (xs: Measure[], f: (m: Measure) => number) =>
      xs.map((m) => f(m).toFixed(f(m) >= 100 ? 0 : 2)).join('/');
    for (const p of ['media', 'stream'] as const) {
      log(
        `  ${p}: 64 KB Range req/s ${fmt(ranges[p], (m) => m.reqPerSec)}, p50 ms ` +
          `${fmt(ranges[p], (m) => m.p50Ms)}; whole file MB/s ${fmt(files[p], (m) => m.bytesPerSec / 1e6)}`,
      );
    }

    // Where a stream's time goes: ping is the router and its authentication alone.
    const ping = await measure(urls.stream.replace('/rest/stream.view', '/rest/ping.view'), false);
    log(`  for comparison, ping (authentication alone): ${Math.round(ping.reqPerSec)} req/s`);

    const med = (xs: Measure[], f: (m: Measure) => number) => median(xs.map(f));
    const baselineName = `the web player's signed /media URL, same file, ${client} -c${CONNECTIONS}`;
    const make = (
      name: string,
      unit: string,
      data: Record<Path, Measure[]>,
      f: (m: Measure) => number,
      better: 'higher' | 'lower',
      targeted = false,
    ) => {
      const r = row(name, med(data.stream, f), med(data.media, f), better, { unit, baselineName });
      return targeted ? { ...r, target: { text: `≥ ${TARGET}`, met: r.ratio >= TARGET } } : r;
    };
    return [
      make(
        'subsonic stream whole 5 MB rendition (MB/s)',
        'MB/s',
        files,
        (m) => m.bytesPerSec / 1e6,
        'higher',
        true,
      ),
      // Seeks: the web path's are answered by the media lane before Fastify runs (ADR 0010),
      // a stream's go through the /rest route; shown for what they are, not the target.
      make(
        'subsonic stream 64 KB Range, vs the lane (req/s)',
        'req/s',
        ranges,
        (m) => m.reqPerSec,
        'higher',
      ),
      make(
        'subsonic stream 64 KB Range p50, vs the lane (ms)',
        'ms',
        ranges,
        (m) => m.p50Ms,
        'lower',
      ),
    ];
  } finally {
    await close?.().catch(() => {});
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Canto on a fresh DATA_DIR with one listener (an app password) and one song whose Opus 96
 * rendition is a stored file of FILE_SIZE random bytes (what is sent is all that is measured).
 */
async function startCanto(root: string, database: Database) {
  const dataDir = path.join(root, 'data');
  const env = parseEnv({
    DATA_DIR: dataDir,
    SECRET_KEY,
    LOG_LEVEL: 'silent',
    DEMO: '0',
    PORT: '0',
    MEDIA_OFFLOAD: 'none',
  });
  const storage = createLocalStorage(path.join(dataDir, 'media'), {
    memoryCacheBytes: env.mediaMemoryCacheMb * 1024 * 1024,
  });
  const { app } = await buildApp({ env, database, storage, logger: false });
  const closeAll = async () => {
    await app.close();
  };
  try {
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email: 'bench@example.com', password: 'secret-pass', display_name: 'Bench' },
    });
    if (signUp.statusCode !== 201) throw new Error(`sign-up: ${signUp.body}`);
    const { user, access_token } = signUp.json<{ user: { id: string }; access_token: string }>();
    const created = await app.inject({
      method: 'POST',
      url: '/api/me/subsonic/passwords',
      headers: { authorization: `Bearer ${access_token}` },
      payload: { name: 'Bench' },
    });
    if (created.statusCode !== 201) throw new Error(`app password: ${created.body}`);
    const apiKey = created.json<{ password: string }>().password;

    const bytes = crypto.randomBytes(FILE_SIZE);
    const original = `${crypto.randomUUID()}.wav`;
    const rendition = `${crypto.randomUUID()}.webm`;
    for (const [key, contentType] of [
      [original, 'audio/wav'],
      [rendition, 'audio/webm'],
    ] as const)
      await storage.put('music', key, Readable.from([bytes]), {
        contentType,
        maxBytes: FILE_SIZE,
      });
    const db = database.db;
    const result = (await db.execute(
      sql`insert into songs (artist_id, artist, title, file_url, file_key, duration_ms)
          values (${user.id}, 'Bench', 'Bench song', ${`/media/music/${original}`},
                  ${`music/${original}`}, 436000)
          returning id`,
    )) as unknown as { rows: Array<{ id: string }> };
    const songId = result.rows[0]!.id;
    await db.execute(
      sql`insert into song_renditions (song_id, format, codec, mime, bitrate_kbps, file_url,
            file_key, bytes, duration_ms)
          values (${songId}, 'opus-96', 'opus', 'audio/webm; codecs=opus', 96,
                  ${`/media/music/${rendition}`}, ${`music/${rendition}`}, ${FILE_SIZE}, 436000)`,
    );
    // The rendition's URL as the web player gets it (songs' API signs it on the way out).
    const song = await app.inject({
      method: 'GET',
      url: `/api/songs/${songId}`,
      headers: { authorization: `Bearer ${access_token}` },
    });
    const mediaUrl = song
      .json<{ renditions: Array<{ url: string; bitrate_kbps: number }> }>()
      .renditions.find((r) => r.bitrate_kbps === 96)?.url;
    if (!mediaUrl) throw new Error(`no rendition URL: ${song.body}`);

    await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      port: (app.server.address() as { port: number }).port,
      songId,
      apiKey,
      mediaUrl,
      bytes,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await subsonicStreamBench({ log: (line) => console.log(line) });
  console.table(rows.map(({ target, ...r }) => ({ ...r, target: target?.text, met: target?.met })));
  process.exit(0);
}
