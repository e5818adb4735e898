// Real media for upload journeys, made in the test: a 16-bit PCM WAV sine and a PNG cover,
// and the API upload of a tone as a song.
import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import sharp from 'sharp';
import { encodeWav } from '../../src/server/demo/synth.ts';
import { ARTIST_STATE, requireArtistSession } from './support.ts';

/** A mono 16-bit PCM WAV of a sine tone (encoded by the demo synth's WAV writer). */
export function sineWav({ seconds = 10, hz = 440, sampleRate = 22_050 } = {}): Buffer {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.sin((2 * Math.PI * hz * i) / sampleRate) * 0.3;
  return encodeWav(samples, sampleRate);
}

/** A small square PNG with a diagonal gradient. */
export async function coverPng(size = 128, from = [124, 58, 237], to = [236, 72, 153]) {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * (size - 1));
      for (let c = 0; c < 3; c++) {
        pixels[(y * size + x) * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
      }
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * Uploads a sine-tone WAV as a song through the API (an artist's request context) and
 * returns its id. Uploads are decoded to be measured, so a busy machine gets a long timeout.
 */
export async function uploadTone(
  api: APIRequestContext,
  song: { title: string; seconds: number; hz: number; genre?: string; sampleRate?: number },
): Promise<string> {
  const res = await api.post('/api/songs', {
    multipart: {
      title: song.title,
      genre: song.genre ?? 'Pop',
      file: {
        name: 'tone.wav',
        mimeType: 'audio/wav',
        buffer: sineWav({ seconds: song.seconds, hz: song.hz, sampleRate: song.sampleRate }),
      },
    },
    timeout: 150_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

type Playwright = PlaywrightWorkerArgs['playwright'];

/**
 * The fixture artist uploads one small tone song per title (8 kHz, `seconds` long, each a
 * different pitch) and answers their ids in order: a journey's songs, made in its beforeAll.
 */
export async function uploadArtistTones(
  playwright: Playwright,
  baseURL: string | undefined,
  titles: string[],
  seconds: number,
): Promise<string[]> {
  requireArtistSession();
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  try {
    return await Promise.all(
      titles.map((title, i) =>
        uploadTone(api, { title, seconds, hz: 330 + 110 * i, sampleRate: 8000 }),
      ),
    );
  } finally {
    await api.dispose();
  }
}

/** The fixture artist deletes a journey's songs (its afterAll). */
export async function deleteArtistSongs(
  playwright: Playwright,
  baseURL: string | undefined,
  ids: string[],
): Promise<void> {
  const api = await playwright.request.newContext({ baseURL, storageState: ARTIST_STATE });
  for (const id of ids) await api.delete(`/api/songs/${id}`);
  await api.dispose();
}
