/*
 * Demo audio, rendered in TypeScript at seed time: no downloads, no ffmpeg. Each genre has a
 * flavour (tempo, scale, chord progression, timbre, drum pattern); a seed picks the melody,
 * so the same seed always gives the same bytes. Output is 16-bit PCM mono WAV, 22.05 kHz by
 * default to keep a 30 s track near 1.3 MB.
 */
import { GENRES, type Genre } from '../../core/validation/song.rules.ts';

export type Wave = 'sine' | 'triangle' | 'square' | 'saw';

export type Flavour = {
  bpm: number;
  /** MIDI note of the key's tonic. */
  root: number;
  /** Semitone offsets of the scale degrees within one octave. */
  scale: readonly number[];
  /** Scale degrees (0-based) of the chord roots, one chord per bar. */
  progression: readonly number[];
  /** Chord tones stacked in scale steps above the root (triads: [0, 2, 4]). */
  chord: readonly number[];
  lead: Wave;
  bass: Wave;
  pad: Wave;
  /** 16 steps per bar: x = hit, . = rest. Empty string: no such drum. */
  kick: string;
  snare: string;
  hat: string;
  /** 0 = straight, 0.33 ≈ triplet swing on off-beat 16ths. */
  swing: number;
  /** Chance that an eighth-note slot of the melody sounds. */
  density: number;
  /** Play the chord as an arpeggio of 16ths instead of a held pad. */
  arpeggio?: boolean;
};

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];
const DORIAN = [0, 2, 3, 5, 7, 9, 10];
const MIXOLYDIAN = [0, 2, 4, 5, 7, 9, 10];

// The spec's eight genres, one flavour each (core owns the list).
export { GENRES, type Genre };

export const FLAVOURS: Record<Genre | 'Podcast', Flavour> = {
  Pop: {
    bpm: 112,
    root: 60,
    scale: MAJOR,
    progression: [0, 4, 5, 3],
    chord: [0, 2, 4],
    lead: 'triangle',
    bass: 'triangle',
    pad: 'saw',
    kick: 'x...x...x...x...',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    swing: 0,
    density: 0.7,
  },
  Rock: {
    bpm: 128,
    root: 52,
    scale: MIXOLYDIAN,
    progression: [0, 6, 3, 0],
    chord: [0, 2, 4],
    lead: 'square',
    bass: 'saw',
    pad: 'square',
    kick: 'x.....x.x.......',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    swing: 0,
    density: 0.75,
  },
  'Hip Hop': {
    bpm: 88,
    root: 57,
    scale: MINOR,
    progression: [0, 5, 3, 4],
    chord: [0, 2, 4, 6],
    lead: 'sine',
    bass: 'sine',
    pad: 'triangle',
    kick: 'x......x..x.....',
    snare: '....x.......x...',
    hat: 'x.xxx.x.x.xxx.x.',
    swing: 0.2,
    density: 0.45,
  },
  Electronic: {
    bpm: 124,
    root: 57,
    scale: MINOR,
    progression: [0, 5, 2, 6],
    chord: [0, 2, 4],
    lead: 'saw',
    bass: 'saw',
    pad: 'saw',
    kick: 'x...x...x...x...',
    snare: '....x.......x...',
    hat: '..x...x...x...x.',
    swing: 0,
    density: 0.85,
    arpeggio: true,
  },
  Jazz: {
    bpm: 100,
    root: 62,
    scale: DORIAN,
    progression: [1, 4, 0, 5],
    chord: [0, 2, 4, 6],
    lead: 'sine',
    bass: 'triangle',
    pad: 'sine',
    kick: 'x.........x.....',
    snare: '',
    hat: 'x..xx..xx..xx..x',
    swing: 0.33,
    density: 0.6,
  },
  Classical: {
    bpm: 76,
    root: 60,
    scale: MAJOR,
    progression: [0, 3, 4, 0],
    chord: [0, 2, 4],
    lead: 'triangle',
    bass: 'sine',
    pad: 'sine',
    kick: '',
    snare: '',
    hat: '',
    swing: 0,
    density: 0.8,
    arpeggio: true,
  },
  'R&B': {
    bpm: 92,
    root: 63,
    scale: MAJOR,
    progression: [1, 4, 0, 3],
    chord: [0, 2, 4, 6],
    lead: 'sine',
    bass: 'sine',
    pad: 'triangle',
    kick: 'x......xx.......',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.xx',
    swing: 0.15,
    density: 0.5,
  },
  Country: {
    bpm: 116,
    root: 55,
    scale: MAJOR,
    progression: [0, 3, 4, 0],
    chord: [0, 2, 4],
    lead: 'triangle',
    bass: 'triangle',
    pad: 'triangle',
    kick: 'x.......x.......',
    snare: '....x.......x...',
    hat: 'x.x.x.x.x.x.x.x.',
    swing: 0,
    density: 0.65,
    arpeggio: true,
  },
  // A calm bed for the demo podcast's episodes.
  Podcast: {
    bpm: 70,
    root: 57,
    scale: MAJOR,
    progression: [0, 3, 5, 4],
    chord: [0, 2, 4],
    lead: 'sine',
    bass: 'sine',
    pad: 'sine',
    kick: '',
    snare: '',
    hat: '',
    swing: 0,
    density: 0.25,
  },
};

/** mulberry32 over an FNV-1a hash of the seed: small, fast, deterministic. */
export function seededRandom(seed: string | number): () => number {
  let h = 2166136261;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const midiToHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

const TABLE_SIZE = 2048;
const tables = new Map<string, Float32Array>();

/**
 * One cycle of a band-limited waveform (additive, partials below Nyquist, at most 10),
 * computed once per shape and partial count: rendering then costs a lookup per sample.
 */
function wavetable(wave: Wave, harmonics: number): Float32Array {
  const id = `${wave}:${harmonics}`;
  let table = tables.get(id);
  if (table) return table;
  table = new Float32Array(TABLE_SIZE + 1);
  for (let i = 0; i <= TABLE_SIZE; i++) {
    const x = (2 * Math.PI * i) / TABLE_SIZE;
    let sum = 0;
    if (wave === 'sine') sum = Math.sin(x);
    else {
      for (let k = 1; k <= harmonics; k++) {
        if (wave === 'saw') sum += Math.sin(k * x) / k;
        else if (k % 2 === 1)
          sum +=
            wave === 'square'
              ? Math.sin(k * x) / k
              : ((k % 4 === 1 ? 1 : -1) * Math.sin(k * x)) / (k * k);
      }
      sum *= wave === 'triangle' ? 0.81 : 0.6;
    }
    table[i] = sum;
  }
  tables.set(id, table);
  return table;
}

type Renderer = { out: Float32Array; sampleRate: number };

function addNote(
  r: Renderer,
  start: number,
  seconds: number,
  midi: number,
  wave: Wave,
  gain: number,
  env: { attack: number; release: number },
) {
  const sr = r.sampleRate;
  const hz = midiToHz(midi);
  const table = wavetable(
    wave,
    wave === 'sine' ? 1 : Math.max(1, Math.min(10, Math.floor(sr / 2 / hz))),
  );
  const increment = (hz * TABLE_SIZE) / sr;
  let phase = 0;
  const first = Math.floor(start * sr);
  const length = Math.floor((seconds + env.release) * sr);
  const attack = Math.max(1, Math.floor(env.attack * sr));
  const hold = Math.floor(seconds * sr);
  const release = Math.max(1, Math.floor(env.release * sr));
  for (let i = 0; i < length && first + i < r.out.length; i++) {
    const level =
      i < attack
        ? i / attack
        : i < hold
          ? 1 - 0.3 * ((i - attack) / Math.max(1, hold - attack))
          : 0.7 * (1 - (i - hold) / release);
    const index = Math.floor(phase);
    const sample = table[index]! + (table[index + 1]! - table[index]!) * (phase - index);
    r.out[first + i]! += gain * Math.max(0, level) * sample;
    phase += increment;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
  }
}

function addKick(r: Renderer, start: number) {
  const sr = r.sampleRate;
  const first = Math.floor(start * sr);
  let phase = 0;
  for (let i = 0; i < 0.3 * sr && first + i < r.out.length; i++) {
    const t = i / sr;
    phase += (45 + 90 * Math.exp(-t * 30)) / sr;
    r.out[first + i]! += 0.55 * Math.exp(-t * 9) * Math.sin(2 * Math.PI * phase);
  }
}

function addNoiseHit(r: Renderer, start: number, random: () => number, kind: 'snare' | 'hat') {
  const sr = r.sampleRate;
  const first = Math.floor(start * sr);
  const seconds = kind === 'snare' ? 0.18 : 0.045;
  let previous = 0;
  for (let i = 0; i < seconds * sr && first + i < r.out.length; i++) {
    const t = i / sr;
    const white = random() * 2 - 1;
    // A first difference tilts the noise towards highs: hats hiss, snares keep some body.
    const noise =
      kind === 'hat' ? white - previous : white * 0.7 + Math.sin(2 * Math.PI * 185 * t) * 0.3;
    previous = white;
    r.out[first + i]! +=
      (kind === 'snare' ? 0.28 : 0.09) * Math.exp(-t * (kind === 'snare' ? 22 : 90)) * noise;
  }
}

export type RenderOptions = {
  seed: string | number;
  flavour: Flavour;
  seconds: number;
  sampleRate?: number;
};

/** Renders samples in [-1, 1]; exactly round(seconds × sampleRate) of them. */
export function renderTrack({
  seed,
  flavour: f,
  seconds,
  sampleRate = 22_050,
}: RenderOptions): Float32Array {
  const random = seededRandom(seed);
  const r: Renderer = { out: new Float32Array(Math.round(seconds * sampleRate)), sampleRate };
  const step = 60 / f.bpm / 4;
  const steps = Math.ceil(seconds / step);
  const at = (s: number) => s * step + (s % 2 === 1 ? f.swing * step : 0);
  const degreeToMidi = (degree: number, octave = 0) => {
    const n = f.scale.length;
    const wrapped = ((degree % n) + n) % n;
    return f.root + f.scale[wrapped]! + 12 * (octave + Math.floor(degree / n));
  };

  // A two-bar motif of eighth notes, repeated with small variations, reads as a melody.
  const motif = Array.from({ length: 16 }, () =>
    random() < f.density ? Math.floor(random() * 7) : null,
  );

  for (let s = 0; s < steps; s++) {
    const bar = Math.floor(s / 16);
    const inBar = s % 16;
    const chordRoot = f.progression[bar % f.progression.length]!;
    const start = at(s);

    if (inBar === 0 && !f.arpeggio) {
      for (const tone of f.chord)
        addNote(r, start, step * 15, degreeToMidi(chordRoot + tone), f.pad, 0.05, {
          attack: 0.08,
          release: 0.3,
        });
    }
    if (f.arpeggio) {
      const tone = f.chord[inBar % f.chord.length]!;
      addNote(r, start, step * 0.9, degreeToMidi(chordRoot + tone), f.pad, 0.07, {
        attack: 0.005,
        release: 0.12,
      });
    }
    if (inBar % 8 === 0 || (f.kick[inBar] === 'x' && random() < 0.5)) {
      addNote(
        r,
        start,
        step * (inBar % 8 === 0 ? 3.5 : 1.5),
        degreeToMidi(chordRoot, -2),
        f.bass,
        0.2,
        { attack: 0.01, release: 0.06 },
      );
    }
    if (inBar % 2 === 0) {
      const slot = motif[((bar % 2) * 16 + inBar) / 2];
      if (slot !== null && slot !== undefined) {
        // Every fourth bar the motif moves up a third, so repeats do not sound looped.
        const degree = chordRoot + slot + (bar % 4 === 3 ? 2 : 0);
        addNote(r, start, step * 1.8, degreeToMidi(degree, 1), f.lead, 0.11, {
          attack: 0.01,
          release: 0.1,
        });
      }
    }
    if (f.kick[inBar] === 'x') addKick(r, start);
    if (f.snare[inBar] === 'x') addNoiseHit(r, start, random, 'snare');
    if (f.hat[inBar] === 'x') addNoiseHit(r, start, random, 'hat');
  }

  // Normalise, soft-clip and fade so every track starts and ends cleanly.
  let peak = 0;
  for (let i = 0; i < r.out.length; i++) peak = Math.max(peak, Math.abs(r.out[i]!));
  const gain = peak > 0 ? 0.9 / peak : 0;
  const fadeIn = Math.floor(0.3 * sampleRate);
  const fadeOut = Math.floor(1.5 * sampleRate);
  for (let i = 0; i < r.out.length; i++) {
    const edge = Math.min(1, i / fadeIn, (r.out.length - 1 - i) / fadeOut);
    r.out[i] = Math.tanh(r.out[i]! * gain * 1.1) * Math.max(0, edge);
  }
  return r.out;
}

/** The 44-byte RIFF header of a 16-bit PCM mono WAV whose samples take `dataBytes`. */
export function wavHeader(dataBytes: number, sampleRate: number): Buffer {
  const b = Buffer.alloc(44);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVE', 8, 'ascii');
  b.write('fmt ', 12, 'ascii');
  b.writeUInt32LE(16, 16); // fmt chunk size
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(sampleRate, 24);
  b.writeUInt32LE(sampleRate * 2, 28); // byte rate
  b.writeUInt16LE(2, 32); // block align
  b.writeUInt16LE(16, 34); // bits per sample
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(dataBytes, 40);
  return b;
}

/** 16-bit PCM mono WAV: the 44-byte RIFF header, then little-endian samples. */
export function encodeWav(samples: Float32Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const b = Buffer.alloc(44 + dataBytes);
  wavHeader(dataBytes, sampleRate).copy(b, 0);
  // A DataView write per sample, not Buffer#writeInt16LE: the same bytes, ~10× faster.
  const view = new DataView(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(44 + i * 2, Math.round(v * 32767), true);
  }
  return b;
}

/** A finished demo track: WAV bytes and its exact duration. */
export function synthesizeWav(options: RenderOptions): { wav: Buffer; durationMs: number } {
  const sampleRate = options.sampleRate ?? 22_050;
  const samples = renderTrack({ ...options, sampleRate });
  return {
    wav: encodeWav(samples, sampleRate),
    durationMs: Math.round((samples.length / sampleRate) * 1000),
  };
}
