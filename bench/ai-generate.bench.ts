/**
 * AI generation bench (docs/decisions/0031; targets: offline lyrics p95 < 50 ms, offline cover
 * art p95 < 500 ms, through HTTP). One in-process app on PGlite with AI_PROVIDER=local;
 * sequential POST /api/ai/generate requests with a new prompt each, after a warm-up (the
 * pronouncing dictionary and the font load on first use). Each beside a baseline of the same
 * run: lyrics beside an authenticated GET /api/auth/session (the HTTP, auth and database
 * floor), covers beside sharp encoding a plain 1400 px PNG by hand (the image floor).
 *
 * Run alone: npx tsx bench/ai-generate.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { buildApp, type App } from '../src/server/app.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { row, withTimeout, type BenchRow, type Log } from './bench-kit.ts';

const WORDS = (
  'ocean night city rain summer love desert highway neon midnight river mountain fire ' +
  'dream heart golden silver winter morning storm dance street moon star road home'
).split(' ');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A prompt of three words, different for each i. */
const promptOf = (i: number) =>
  `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]} ${i}`;

async function timed(times: number[], work: () => Promise<void>) {
  const start = performance.now();
  await work();
  times.push(performance.now() - start);
}

export async function aiGenerateBench(
  options: { log?: Log; lyricsRounds?: number; coverRounds?: number } = {},
): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const lyricsRounds = options.lyricsRounds ?? 200;
  const coverRounds = options.coverRounds ?? 40;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-ai-'));
  let database: Database | undefined;
  let app: App | undefined;
  try {
    const env = parseEnv({
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
      AI_PROVIDER: 'local',
      AI_GENERATIONS_PER_HOUR: '100000',
    });
    database = await openDatabase({ dataDir });
    await database.migrate();
    ({ app } = await buildApp({ env, database, logger: false }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    const signUp = await fetch(`${base}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench-ai@example.test',
        password: 'bench-password',
        display_name: 'Bench AI',
        is_artist: false,
      }),
    });
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
    const token = ((await signUp.json()) as { access_token: string }).access_token;
    const auth = { authorization: `Bearer ${token}` };

    const generate = async (type: 'lyrics' | 'cover-art', prompt: string) => {
      const res = await fetch(`${base}/api/ai/generate`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, type }),
      });
      if (res.status !== 201)
        throw new Error(`generate answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    const session = async () => {
      const res = await fetch(`${base}/api/auth/session`, { headers: auth });
      if (!res.ok) throw new Error(`session answered ${res.status}`);
      await res.arrayBuffer();
    };
    const plainPng = async () => {
      await sharp({
        create: { width: 1400, height: 1400, channels: 3, background: { r: 30, g: 40, b: 90 } },
      })
        .png({ compressionLevel: 6 })
        .toBuffer();
    };

    // Warm-up: the dictionary, the font, sharp's and PGlite's first calls.
    for (let i = 0; i < 5; i++) {
      await generate('lyrics', `warm up ${i}`);
      await generate('cover-art', `warm up ${i}`);
      await session();
      await plainPng();
    }

    const lyrics: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < lyricsRounds; i++) {
      await timed(floor, session);
      await timed(lyrics, () => generate('lyrics', promptOf(i)));
    }
    const covers: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < coverRounds; i++) {
      await timed(plain, plainPng);
      await timed(covers, () => generate('cover-art', promptOf(i)));
    }

    const l95 = percentile(lyrics, 95);
    const f95 = percentile(floor, 95);
    const c95 = percentile(covers, 95);
    const p95 = percentile(plain, 95);
    log(
      `  lyrics p50 ${percentile(lyrics, 50).toFixed(1)} p95 ${l95.toFixed(1)} ms (session GET p95 ${f95.toFixed(1)}); ` +
        `cover p50 ${percentile(covers, 50).toFixed(1)} p95 ${c95.toFixed(1)} ms (plain PNG p95 ${p95.toFixed(1)})`,
    );
    return [
      row(`local lyrics p95 (${lyricsRounds} POSTs)`, l95, f95, 'lower', {
        unit: 'ms',
        baselineName: 'GET /api/auth/session p95',
        target: { text: '< 50 ms', met: l95 < 50 },
      }),
      row(`local cover art p95 (${coverRounds} POSTs)`, c95, p95, 'lower', {
        unit: 'ms',
        baselineName: 'sharp plain 1400 px PNG p95',
        target: { text: '< 500 ms', met: c95 < 500 },
      }),
    ];
  } finally {
    await app?.close();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(
    await withTimeout(10 * 60_000, 'ai-generate bench', aiGenerateBench({ log: console.log })),
  );
}
