/**
 * AI companion bench (docs/decisions/0033), local engine, on the real app (buildApp + listen
 * on 127.0.0.1, PGlite), a `ws` client scripted as the web panel:
 *   - typed 'play something jazzy' → the control_playback call with the song id (the client
 *     answers get_recommendations at once from a prepared list: the server's part is
 *     measured), and typed 'pause' → its call, beside a WebSocket echo round trip on the same
 *     server (the transport's floor);
 *   - spoken 'pause' / 'next song' (espeak-ng, streamed at real time in 4096-sample frames) →
 *     the tool call, timed from the frame holding the end of the speech: VAD hangover plus
 *     pocketsphinx. Target < 1.5 s; baseline the same echo round trip.
 *
 * Run alone: npx tsx bench/ai-companion.bench.ts
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import {
  COMPANION_FRAME_SAMPLES,
  COMPANION_PATH,
  COMPANION_SAMPLE_RATE,
  type CompanionServerEvent,
} from '../src/contracts/companion.contract.ts';
import { parseWav, pcm16ToBytes, resampleLinear } from '../src/core/ai/pcm.ts';
import { buildApp, type App } from '../src/server/app.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import { onPath } from '../src/server/modules/companion/companion-speech.ts';
import { median, row, unavailable, withTimeout, type BenchRow, type Log } from './bench-kit.ts';

type Ws = {
  readyState: number;
  send(data: string): void;
  close(): void;
  on(event: 'message', listener: (data: Buffer) => void): unknown;
  on(event: 'open' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
};
const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  options?: { headers?: Record<string, string> },
) => Ws;

const ROUNDS = 20;
const SPOKEN_ROUNDS = 3;

/** A socket whose messages are awaited one by one. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const inbox: string[] = [];
  let wake: (() => void) | null = null;
  const arrivals: { type: string; at: number }[] = [];
  socket.on('message', (data) => {
    inbox.push(data.toString());
    arrivals.push({
      type: (JSON.parse(data.toString()) as { type: string }).type,
      at: performance.now(),
    });
    wake?.();
  });
  await new Promise((resolve, reject) => {
    socket.on('open', resolve);
    socket.on('error', reject);
  });
  return {
    socket,
    arrivals,
    send: (event: unknown) =>
      socket.send(typeof event === 'string' ? event : JSON.stringify(event)),
    async next(): Promise<string> {
      while (!inbox.length) await new Promise<void>((resolve) => (wake = resolve));
      return inbox.shift()!;
    },
    /** The next companion event of `type`, skipping the others. */
    async event<T extends CompanionServerEvent['type']>(type: T) {
      for (;;) {
        const e = JSON.parse(await this.next()) as CompanionServerEvent;
        if (e.type === type) return e as Extract<CompanionServerEvent, { type: T }>;
      }
    },
  };
}

const say = (text: string) => [
  {
    type: 'conversation.item.create',
    item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  },
  { type: 'response.create' },
];

export async function aiCompanionBench(options: { log?: Log } = {}): Promise<BenchRow[]> {
  const log = options.log ?? (() => {});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canto-bench-companion-'));
  let database: Database | undefined;
  let app: App | undefined;
  try {
    const env = parseEnv({
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
      AI_PROVIDER: 'local',
    });
    database = await openDatabase({ dataDir });
    await database.migrate();
    ({ app } = await buildApp({ env, database, logger: false }));
    // The baseline: an echo socket on the same server, through the same upgrade path.
    app.get('/bench/echo', { websocket: true, config: { access: 'public' } }, (socket: Ws) => {
      socket.on('message', (data) => socket.send(data.toString()));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}`;

    const signUp = await fetch(`${base}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'companion-bench@example.test',
        password: 'bench-password',
        display_name: 'Bench Listener',
        is_artist: false,
      }),
    });
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
    const { access_token: token, user } = (await signUp.json()) as {
      access_token: string;
      user: { id: string };
    };
    await database.db.execute(
      sql`insert into subscriptions (user_id, provider, status, current_period_start, current_period_end)
          values (${user.id}, 'local', 'active', now() - interval '1 day', now() + interval '30 days')`,
    );

    // Baseline: echo round trips.
    const echo = await connect(`ws://127.0.0.1:${port}/bench/echo`);
    const echoes: number[] = [];
    const frame = JSON.stringify({ type: 'response.create' });
    for (let i = 0; i < ROUNDS * 5; i++) {
      const t = performance.now();
      echo.send(frame);
      await echo.next();
      echoes.push(performance.now() - t);
    }
    echo.socket.close();
    const echoMs = median(echoes);

    const companion = await connect(`ws://127.0.0.1:${port}${COMPANION_PATH}`, {
      authorization: `Bearer ${token}`,
    });
    const session = await companion.event('session.created');
    const songs = [
      {
        id: 'song-1',
        title: 'Night Swing',
        artist_id: 'artist-1',
        artist_name: 'Blue Trio',
        genre: 'jazz',
      },
    ];
    const jazzy: number[] = [];
    const pause: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now();
      for (const e of say('play something jazzy')) companion.send(e);
      const recommend = await companion.event('response.function_call_arguments.done');
      companion.send({
        type: 'conversation.item.create',
        item: {
          type: 'function_call_output',
          call_id: recommend.call_id,
          output: JSON.stringify({ songs }),
        },
      });
      companion.send({ type: 'response.create' });
      const play = await companion.event('response.function_call_arguments.done');
      if (play.name !== 'control_playback' || !play.arguments.includes('song-1'))
        throw new Error(`unexpected call ${play.name} ${play.arguments}`);
      jazzy.push(performance.now() - t);
      companion.send({
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: play.call_id, output: '{"ok":true}' },
      });
      companion.send({ type: 'response.create' });
      await companion.event('response.audio_transcript.delta');
      await companion.event('response.done');
      // With espeak-ng the answer's audio follows; let it pass before the next round.
      if (session.session.speech.output) await new Promise((r) => setTimeout(r, 300));

      t = performance.now();
      for (const e of say('pause')) companion.send(e);
      await companion.event('response.function_call_arguments.done');
      pause.push(performance.now() - t);
    }
    log(
      `  echo ${echoMs.toFixed(2)} ms; typed jazzy → control_playback ${median(jazzy).toFixed(2)} ms; ` +
        `typed pause → call ${median(pause).toFixed(2)} ms`,
    );
    const rows = [
      row("typed 'play something jazzy' → control_playback call", median(jazzy), echoMs, 'lower', {
        unit: 'ms',
        baselineName: 'ws echo round trip',
      }),
      row("typed 'pause' → control_playback call", median(pause), echoMs, 'lower', {
        unit: 'ms',
        baselineName: 'ws echo round trip',
      }),
    ];
    companion.socket.close();

    if (!session.session.speech.input || !onPath('espeak-ng')) {
      rows.push(
        unavailable('spoken phrase → tool call', 'pocketsphinx or espeak-ng not installed'),
      );
      return rows;
    }
    const spokenMs: number[] = [];
    for (const phrase of ['pause', 'next song']) {
      const wav = parseWav(
        new Uint8Array(execFileSync('espeak-ng', ['--stdout', '-s', '150', phrase])),
      )!;
      const voice = resampleLinear(wav.samples, wav.sampleRate, COMPANION_SAMPLE_RATE);
      const lead = Math.round(COMPANION_SAMPLE_RATE * 0.5);
      const audio = new Int16Array(lead + voice.length + COMPANION_SAMPLE_RATE * 1.5);
      audio.set(voice, lead);
      // espeak-ng ends in silence: the speech ends at its last loud sample.
      let last = voice.length - 1;
      while (last > 0 && Math.abs(voice[last]!) < 500) last--;
      const speechEnd = lead + last;
      for (let round = 0; round < SPOKEN_ROUNDS; round++) {
        const client = await connect(`ws://127.0.0.1:${port}${COMPANION_PATH}`, {
          authorization: `Bearer ${token}`,
        });
        await client.event('session.created');
        const called = client.event('response.function_call_arguments.done');
        const frameMs = (COMPANION_FRAME_SAMPLES / COMPANION_SAMPLE_RATE) * 1000;
        const start = performance.now();
        let endedAt = 0;
        for (let at = 0, n = 0; at < audio.length; at += COMPANION_FRAME_SAMPLES, n++) {
          const wait = start + n * frameMs - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          client.send({
            type: 'input_audio_buffer.append',
            audio: Buffer.from(
              pcm16ToBytes(audio.subarray(at, at + COMPANION_FRAME_SAMPLES)),
            ).toString('base64'),
          });
          if (!endedAt && at + COMPANION_FRAME_SAMPLES > speechEnd) endedAt = performance.now();
        }
        const call = await withTimeout(10_000, 'spoken tool call', called);
        // From the arrival times: the stream's silent tail is still being sent by then.
        const at = (type: string) => client.arrivals.find((a) => a.type === type)!.at - endedAt;
        spokenMs.push(at('response.function_call_arguments.done'));
        log(
          `  speech_stopped +${at('input_audio_buffer.speech_stopped').toFixed(0)} ms, ` +
            `transcript +${at('conversation.item.input_audio_transcription.completed').toFixed(0)} ms`,
        );
        log(
          `  spoken '${phrase}' → ${call.name} ${call.arguments} ${spokenMs.at(-1)!.toFixed(0)} ms after speech end`,
        );
        client.socket.close();
      }
    }
    const spoken = median(spokenMs);
    rows.push(
      row('spoken phrase → tool call, after speech ends', spoken, echoMs, 'lower', {
        unit: 'ms',
        baselineName: 'ws echo round trip',
        target: { text: '< 1500 ms', met: spoken < 1500 },
      }),
    );
    return rows;
  } finally {
    await app?.close();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(
    await withTimeout(10 * 60_000, 'ai companion bench', aiCompanionBench({ log: console.log })),
  );
}
