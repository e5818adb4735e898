// What the companion journeys' Chromium hears: its fake microphone plays a WAV file, looped
// (`--use-file-for-fake-audio-capture`), with the permission prompt answered yes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import config from '../../playwright.config.ts';

/** Launch options for a browser whose microphone hears `wavFile` over and over. */
export function fakeMicrophone(wavFile: string) {
  return {
    executablePath: '/usr/bin/chromium',
    args: [
      // A file's own launchOptions replace the config's: keep its arguments.
      ...(config.use?.launchOptions?.args ?? []),
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wavFile}`,
    ],
  };
}

function writeWav(name: string, samples: Int16Array, rate: number): string {
  const data = samples.length * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(data, 40);
  Buffer.from(samples.buffer, samples.byteOffset, data).copy(wav, 44);
  const file = path.join(os.tmpdir(), `canto-e2e-${name}-${process.pid}.wav`);
  fs.writeFileSync(file, wav);
  return file;
}

/** One second of silence: a microphone that starts no speech by itself. */
export function silenceWav(): string {
  return writeWav('silence', new Int16Array(24_000), 24_000);
}

/**
 * `text` as espeak-ng's American voice says it (the one the offline recognizer hears best),
 * with `pauseSeconds` of silence between two loops;
 * null where espeak-ng is not installed.
 */
export function spokenWav(text: string, pauseSeconds: number): string | null {
  const out = path.join(os.tmpdir(), `canto-e2e-espeak-${process.pid}.wav`);
  const said = spawnSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', out, text]);
  if (said.error || said.status !== 0) return null;
  const wav = fs.readFileSync(out);
  fs.rmSync(out, { force: true });
  const rate = wav.readUInt32LE(24);
  const at = wav.indexOf('data', 12);
  const bytes = wav.subarray(at + 8, at + 8 + wav.readUInt32LE(at + 4));
  const speech = new Int16Array(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)),
  );
  // Half the pause first as well: the file starts playing before the page's capture does.
  const lead = Math.round((pauseSeconds / 2) * rate);
  const samples = new Int16Array(lead + speech.length + Math.round(pauseSeconds * rate));
  samples.set(speech, lead);
  return writeWav('spoken', samples, rate);
}
