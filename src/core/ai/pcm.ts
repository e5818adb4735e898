/*
 * 16-bit mono PCM as the companion hears and speaks it (24 kHz on the socket): WAV framing
 * for the speech tools and a linear resampler between their rates and the socket's.
 */

/** A little-endian 16-bit PCM WAV of `samples` (mono) at `sampleRate`. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) bytes[offset + i] = s.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i]!, true);
  return bytes;
}

export type Wav = { sampleRate: number; samples: Int16Array };

/**
 * The first channel of a 16-bit PCM WAV. A streamed WAV (espeak-ng --stdout) says 0 or
 * 0xFFFFFFFF for its data size: the data then runs to the end. Null when it is not one.
 */
export function parseWav(bytes: Uint8Array): Wav | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; audioFormat: number } | null =
    null;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (body + 16 > bytes.length) return null;
      format = {
        audioFormat: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format || format.audioFormat !== 1 || format.bits !== 16 || format.channels < 1)
        return null;
      const end = size === 0 || body + size > bytes.length ? bytes.length : body + size;
      const frame = format.channels * 2;
      const count = Math.floor((end - body) / frame);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(body + i * frame, true);
      return { sampleRate: format.sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** Linear interpolation from one rate to another: enough for speech, with no dependency. */
export function resampleLinear(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to || samples.length === 0) return samples.slice();
  const length = Math.max(1, Math.round((samples.length * to) / from));
  const out = new Int16Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    const a = samples[Math.min(index, samples.length - 1)]!;
    const b = samples[Math.min(index + 1, samples.length - 1)]!;
    out[i] = Math.round(a + (b - a) * (position - index));
  }
  return out;
}

/** Little-endian 16-bit samples of `bytes`; null when the byte count is odd (not 16-bit). */
export function pcm16FromBytes(bytes: Uint8Array): Int16Array | null {
  if (bytes.length % 2 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int16Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** The little-endian bytes of `samples`. */
export function pcm16ToBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return bytes;
}

/** Root mean square of a frame, 0 to 32768. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}
