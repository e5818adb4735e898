// The companion's audio on the wire (spec §9): 24 kHz mono 16-bit little-endian PCM, base64,
// sent in 4096-sample frames. Pure conversions, so the framing is tested without a browser.
import { COMPANION_FRAME_SAMPLES } from '@/contracts/companion.contract.ts';

/** Web Audio samples (-1…1) to 16-bit little-endian PCM; out-of-range samples are clipped. */
export function floatToPcm16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(i * 2, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
  }
  return bytes;
}

/** 16-bit little-endian PCM to Web Audio samples; a trailing odd byte is dropped. */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array {
  const count = Math.floor(bytes.length / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const v = view.getInt16(i * 2, true);
    out[i] = v < 0 ? v / 0x8000 : v / 0x7fff;
  }
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode's arguments have a limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const encodeAudioFrame = (samples: Float32Array) => bytesToBase64(floatToPcm16(samples));
export const decodeAudioDelta = (base64: string) => pcm16ToFloat(base64ToBytes(base64));

/**
 * Gathers the microphone's blocks (the audio graph hands 128 samples at a time) into frames
 * of exactly `frameSamples`, each given to `onFrame` as soon as it is full.
 */
export class FrameAssembler {
  private frame: Float32Array;
  private filled = 0;

  constructor(
    private readonly onFrame: (frame: Float32Array) => void,
    private readonly frameSamples = COMPANION_FRAME_SAMPLES,
  ) {
    this.frame = new Float32Array(frameSamples);
  }

  push(block: Float32Array): void {
    let offset = 0;
    while (offset < block.length) {
      const take = Math.min(this.frameSamples - this.filled, block.length - offset);
      this.frame.set(block.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.frameSamples) {
        const full = this.frame;
        this.frame = new Float32Array(this.frameSamples);
        this.filled = 0;
        this.onFrame(full);
      }
    }
  }
}

/**
 * Linear resampling from the capture rate to the wire's, for a browser that runs the audio
 * graph at its device rate despite the 24 kHz asked for. Keeps its position across blocks so
 * consecutive blocks join without a click.
 */
export class Resampler {
  private readonly step: number;
  /** Where the next output sample falls, in input samples from the start of the next block. */
  private position = 0;
  private last = 0;

  constructor(fromRate: number, toRate: number) {
    this.step = fromRate / toRate;
  }

  process(block: Float32Array): Float32Array {
    if (this.step === 1) return block;
    const out: number[] = [];
    // Sample -1 is the previous block's last one.
    const at = (i: number) => (i < 0 ? this.last : (block[i] ?? 0));
    let pos = this.position;
    while (pos <= block.length - 1) {
      const i = Math.floor(pos);
      const frac = pos - i;
      out.push(at(i) + (at(i + 1) - at(i)) * frac);
      pos += this.step;
    }
    this.position = pos - block.length;
    if (block.length > 0) this.last = block[block.length - 1] ?? 0;
    return Float32Array.from(out);
  }
}
