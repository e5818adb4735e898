import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPANION_FRAME_SAMPLES,
  COMPANION_SAMPLE_RATE,
} from '../../src/contracts/companion.contract.ts';
import { parseWav, pcm16ToBytes, resampleLinear } from '../../src/core/ai/pcm.ts';
import { onPath } from '../../src/server/modules/companion/companion-speech.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { subscribe } from './ads-helpers.ts';
import { CompanionClient, listening } from './companion-helpers.ts';
import { makeUser, uploadSong } from './songs-helpers.ts';

/*
 * The local engine hears (docs/decisions/0033): a phrase spoken by espeak-ng at test time is
 * streamed as the panel streams the microphone, 4096-sample frames of 24 kHz PCM at real time,
 * and must come back as speech_started, speech_stopped, its transcript and the right tool
 * call. The database plays no part here, so PGlite alone.
 */

const hears = onPath('pocketsphinx_continuous') !== null && onPath('espeak-ng') !== null;
if (!hears)
  console.warn(
    'companion speech test skipped: pocketsphinx_continuous or espeak-ng is not installed',
  );

/** `text` said by espeak-ng, at 24 kHz, with silence around it as a room would have. */
export function spoken(text: string): Int16Array {
  const wav = parseWav(new Uint8Array(execFileSync('espeak-ng', ['--stdout', '-s', '150', text])))!;
  const voice = resampleLinear(wav.samples, wav.sampleRate, COMPANION_SAMPLE_RATE);
  const out = new Int16Array(Math.round(COMPANION_SAMPLE_RATE * 1.5) + voice.length);
  out.set(voice, Math.round(COMPANION_SAMPLE_RATE * 0.5));
  return out;
}

/** Streams `audio` in frames at real time; answers when the last frame was sent. */
export async function stream(client: CompanionClient, audio: Int16Array): Promise<number> {
  const frameMs = (COMPANION_FRAME_SAMPLES / COMPANION_SAMPLE_RATE) * 1000;
  const start = performance.now();
  for (let at = 0, n = 0; at < audio.length; at += COMPANION_FRAME_SAMPLES, n++) {
    const wait = start + n * frameMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const frame = audio.subarray(at, at + COMPANION_FRAME_SAMPLES);
    client.send({
      type: 'input_audio_buffer.append',
      audio: Buffer.from(pcm16ToBytes(frame)).toString('base64'),
    });
  }
  return performance.now();
}

describe.skipIf(!hears)('the AI companion hears a spoken command (pglite)', () => {
  const ctx = useTestApp('pglite');
  let base: string;
  let token: string;
  let client: CompanionClient;

  beforeAll(async () => {
    base = await listening(ctx);
    // The catalogue's names the recognizer listens for after 'who is' and 'play'.
    const artist = await makeUser(ctx, 'artist', 'Harbor Lights');
    await uploadSong(ctx, artist, { title: 'Silver River' });
    const user = await makeUser(ctx, 'listener', 'Speaking Listener');
    await subscribe(ctx, user.userId);
    token = user.token;
  });
  afterAll(() => client?.socket.terminate());

  it.each([
    ['pause', 'control_playback', { action: 'pause' }],
    ['next song', 'control_playback', { action: 'next' }],
    ['who is harbor lights', 'get_artist_info', { name: 'harbor lights' }],
    ['play silver river', 'search_music', { query: 'silver river' }],
  ])('"%s" → speech started and stopped, its transcript, %s %j', async (phrase, tool, args) => {
    client = CompanionClient.open(base, token);
    const created = await client.next('session.created');
    expect(created.session.speech.input).toBe(true);
    await stream(client, spoken(phrase));
    const started = await client.next('input_audio_buffer.speech_started');
    const stopped = await client.next('input_audio_buffer.speech_stopped', started.index + 1);
    const heard = await client.next(
      'conversation.item.input_audio_transcription.completed',
      stopped.index + 1,
    );
    expect(heard.transcript).toBe(phrase);
    const call = await client.next('response.function_call_arguments.done', heard.index + 1);
    expect(call.name).toBe(tool);
    expect(JSON.parse(call.arguments)).toEqual(args);
    client.socket.terminate();
  });
});
