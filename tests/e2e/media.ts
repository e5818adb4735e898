// Real media for upload journeys, made in the test: a 16-bit PCM WAV sine and a PNG cover.
import sharp from 'sharp';

/** A mono 16-bit PCM WAV of a sine tone. */
export function sineWav({ seconds = 10, hz = 440, sampleRate = 22_050 } = {}): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = samples * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(data, 40);
  for (let i = 0; i < samples; i++) {
    const v = Math.sin((2 * Math.PI * hz * i) / sampleRate) * 0.3;
    wav.writeInt16LE(Math.round(v * 32_767), 44 + i * 2);
  }
  return wav;
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
