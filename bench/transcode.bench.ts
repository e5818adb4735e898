/**
 * Transcode bench (docs/decisions/0014), on a 5-minute 44.1 kHz stereo WAV:
 *
 * - speed: seconds of audio the media pipeline's one ffmpeg run (three renditions, EBU R128
 *   loudness, waveform PCM: src/server/media/renditions.ts) gets through per wall second on
 *   one worker, beside the same ffmpeg with the same arguments run by hand (spawned directly,
 *   its fd 3 drained and nothing else) on the same file in the same run. Rounds alternate
 *   the two; the best of each counts. Target ≥ 0.9 of the hand run.
 * - upload to playable: POST /api/songs of that file through the app (PGlite in a temp
 *   directory) until the 201, when listeners can play the original; and until the song is
 *   'ready' with its renditions (the job run by the app's own worker). Target < 10 s for the
 *   first: the decision of ADR 0014 is that uploads are playable at once.
 * - bytes a listener downloads for the 5-minute song at each quality, beside the original.
 *
 * Run alone: npx tsx bench/transcode.bench.ts   (TRANSCODE_BENCH_SECONDS, _ROUNDS)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { createFfmpeg } from '../src/server/media/ffmpeg.ts';
import { RENDITIONS, transcode, transcodeArgs } from '../src/server/media/renditions.ts';
import { row, type BenchRow, type Log } from './bench-kit.ts';

const SECONDS = Number(process.env.TRANSCODE_BENCH_SECONDS ?? 300);
const ROUNDS = Number(process.env.TRANSCODE_BENCH_ROUNDS ?? 2);

/** Something like music for the encoders: two detuned tones over pink noise, in stereo. */
async function makeWav(ffmpegPath: string, file: string): Promise<void> {
  await run(ffmpegPath, [
    '-v',
    'error',
    '-nostdin',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc=0.2*sin(2*PI*220*t)+0.1*sin(2*PI*331*t)*sin(2*PI*0.5*t)|0.2*sin(2*PI*222*t)+0.1*sin(2*PI*441*t):s=44100:d=${SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.05:r=44100:d=${SECONDS}`,
    '-filter_complex',
    '[1:a]aformat=channel_layouts=stereo[n];[0:a][n]amix=inputs=2,volume=2',
    '-c:a',
    'pcm_s16le',
    '-y',
    file,
  ]);
}

function run(binary: string, args: string[], fd3 = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ['ignore', 'ignore', 'pipe', ...(fd3 ? (['pipe'] as const) : [])],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    if (fd3) (child.stdio[3] as NodeJS.ReadableStream).resume();
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exit ${code}: ${err}`)),
    );
  });
}

export async function transcodeBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-transcode-'));
  const ffmpeg = createFfmpeg({ binary: process.env.FFMPEG_PATH, concurrency: 1 });
  try {
    const input = path.join(work, 'song.wav');
    await makeWav(ffmpeg.binary(), input);
    const originalBytes = fs.statSync(input).size;
    const job = {
      input,
      demuxer: 'wav' as const,
      durationMs: SECONDS * 1000,
      outputs: Object.fromEntries(
        RENDITIONS.map((r) => [r.format, path.join(work, `${r.format}.${r.extension}`)]),
      ) as Record<(typeof RENDITIONS)[number]['format'], string>,
    };
    const args = transcodeArgs(job);

    let pipelineBest = Infinity;
    let handBest = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      await run(ffmpeg.binary(), args, true);
      const hand = performance.now() - t;
      handBest = Math.min(handBest, hand);
      t = performance.now();
      await transcode(ffmpeg, job, SECONDS * 1000);
      const mine = performance.now() - t;
      pipelineBest = Math.min(pipelineBest, mine);
      log(
        `transcode round ${round + 1}: pipeline ${Math.round(mine)} ms, by hand ${Math.round(hand)} ms`,
      );
    }
    const speed = (ms: number) => SECONDS / (ms / 1000);
    const rows: BenchRow[] = [
      row(
        `${SECONDS} s 44.1 kHz stereo WAV → 3 renditions + loudness + peaks, one worker`,
        speed(pipelineBest),
        speed(handBest),
        'higher',
        {
          unit: 'audio s/s',
          baselineName: 'same ffmpeg args by hand',
          target: {
            text: '≥ 0.9× by hand',
            met: speed(pipelineBest) >= 0.9 * speed(handBest),
          },
        },
      ),
    ];
    for (const r of RENDITIONS) {
      const bytes = fs.statSync(job.outputs[r.format]).size;
      rows.push(
        row(
          `bytes per listen, ${r.codec} ${r.bitrateKbps} kbit/s`,
          bytes / 1e6,
          originalBytes / 1e6,
          'lower',
          {
            unit: 'MB',
            baselineName: 'original WAV',
          },
        ),
      );
    }
    rows.push(...(await uploadToPlayable(work, input, log)));
    return rows;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The app on PGlite in `work`: the upload's answer, then the job to 'ready'. */
async function uploadToPlayable(work: string, input: string, log: Log): Promise<BenchRow[]> {
  const { openPglite } = await import('../src/server/db/client.ts');
  const { buildApp } = await import('../src/server/app.ts');
  const { parseEnv } = await import('../src/server/env.ts');
  const dataDir = path.join(work, 'data');
  const database = await openPglite(path.join(dataDir, 'db'));
  await database.migrate();
  const env = parseEnv({
    DATA_DIR: dataDir,
    SECRET_KEY: 'transcode-bench-secret-key-transcode-bench',
    LOG_LEVEL: 'silent',
    DEMO: '0',
    JOB_POLL_INTERVAL_MS: '50',
    MEDIA_WORKERS: '1',
  });
  const { app, jobs } = await buildApp({ env, database, logger: false });
  try {
    await app.ready();
    await jobs.start();
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up',
      payload: { email: 'bench@canto.test', password: 'bench-pass-123', display_name: 'Bench' },
    });
    const { access_token: token, user } = signUp.json() as {
      access_token: string;
      user: { id: string };
    };
    await database.db.execute(
      sql`insert into user_roles (user_id, role) values (${user.id}, 'artist')`,
    );
    const form = new FormData();
    form.append('title', 'Bench Song');
    form.append('file', new Blob([fs.readFileSync(input)], { type: 'audio/wav' }), 'bench.wav');
    const body = new Response(form);
    const payload = Buffer.from(await body.arrayBuffer());
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': body.headers.get('content-type')!,
      },
      payload,
    });
    if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
    const playable = performance.now() - started;
    const id = (res.json() as { id: string }).id;
    for (;;) {
      const song = await app.inject({
        method: 'GET',
        url: `/api/songs/${id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const status = (song.json() as { status: string }).status;
      if (status === 'failed') throw new Error('the media job failed');
      if (status === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ready = performance.now() - started;
    log(
      `upload: playable after ${Math.round(playable)} ms, renditions after ${Math.round(ready)} ms`,
    );
    return [
      row('upload → playable (original, at the 201)', playable / 1000, 10, 'lower', {
        unit: 's',
        baselineName: 'target',
        target: { text: '< 10 s', met: playable < 10_000 },
      }),
      row('upload → renditions ready (background job)', ready / 1000, SECONDS, 'lower', {
        unit: 's',
        baselineName: 'audio length',
      }),
    ];
  } finally {
    await app.close();
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await transcodeBench({ log: console.log });
  console.table(rows);
  process.exit(0);
}
