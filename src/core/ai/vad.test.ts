import { describe, expect, it } from 'vitest';
import { createVad, type VadEvent } from './vad.ts';

const RATE = 24_000;
const FRAME = 4096;
const silence = (seconds: number, hiss = 30) =>
  Int16Array.from(
    { length: Math.round(RATE * seconds) },
    (_, i) => ((i * 7919) % (2 * hiss)) - hiss,
  );
const voice = (seconds: number, amplitude = 6000) =>
  Int16Array.from({ length: Math.round(RATE * seconds) }, (_, i) =>
    Math.round(
      amplitude * Math.sin((2 * Math.PI * 220 * i) / RATE) * (1 + 0.3 * Math.sin(i / 900)),
    ),
  );
const concat = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** Feeds `audio` in 4096-sample frames, as the panel sends it; events with the frame index. */
function feed(audio: Int16Array, options = {}) {
  const vad = createVad({ sampleRate: RATE, ...options });
  const events: (VadEvent & { frame: number })[] = [];
  for (let at = 0, frame = 0; at < audio.length; at += FRAME, frame++)
    for (const e of vad.push(audio.subarray(at, at + FRAME))) events.push({ ...e, frame });
  return events;
}

describe('voice activity detection', () => {
  it('hears one utterance in silence: started, then stopped after the hangover', () => {
    const events = feed(concat(silence(1), voice(0.8), silence(1)));
    expect(events.map((e) => e.type)).toEqual(['speech_started', 'speech_stopped']);
    const stopped = events[1] as Extract<VadEvent, { type: 'speech_stopped' }> & { frame: number };
    // The utterance with its pre-roll and a short tail: about 0.8 s to 1.3 s.
    expect(stopped.audio.length / RATE).toBeGreaterThan(0.8);
    expect(stopped.audio.length / RATE).toBeLessThan(1.3);
    // Stopped within hangover (0.45 s) and a frame of the voice's end at 1.8 s.
    expect(((stopped.frame + 1) * FRAME) / RATE).toBeLessThan(1.8 + 0.45 + FRAME / RATE + 0.01);
  });

  it('keeps a pause between words inside the utterance', () => {
    const events = feed(concat(silence(0.5), voice(0.4), silence(0.2), voice(0.4), silence(1)));
    expect(events.map((e) => e.type)).toEqual(['speech_started', 'speech_stopped']);
  });

  it('hears nothing in silence or a click, and two utterances apart', () => {
    expect(feed(silence(3))).toEqual([]);
    expect(feed(concat(silence(1), voice(0.02), silence(1)))).toEqual([]);
    const two = feed(concat(silence(0.5), voice(0.5), silence(1), voice(0.5), silence(1)));
    expect(two.map((e) => e.type)).toEqual([
      'speech_started',
      'speech_stopped',
      'speech_started',
      'speech_stopped',
    ]);
  });

  it('cuts an endless utterance at its longest', () => {
    const events = feed(voice(3), { maxSpeechMs: 1000 });
    expect(events.filter((e) => e.type === 'speech_stopped').length).toBeGreaterThanOrEqual(2);
  });
});
