import { rms } from './pcm.ts';

/*
 * Voice activity detection on a PCM stream by energy, with a hangover: speech starts after a
 * few loud windows in a row and stops after a stretch of quiet windows, so the pauses between
 * words do not cut an utterance. The threshold follows the room's noise floor, never below a
 * fixed minimum, so a quiet hiss is not speech and a noisy room does not speak for ever.
 */

export type VadOptions = {
  sampleRate: number;
  /** Analysis window (ms). */
  windowMs?: number;
  /** RMS (of 32768) below which a window is quiet whatever the noise floor. */
  minThreshold?: number;
  /** How far above the noise floor a window must be to be loud. */
  floorRatio?: number;
  /** Loud time in a row that starts speech (ms). */
  startMs?: number;
  /** Quiet time in a row that ends it (ms). */
  hangoverMs?: number;
  /** Audio kept from before the start, so the first syllable is heard (ms). */
  preRollMs?: number;
  /** Longest utterance: it is cut there (ms). */
  maxSpeechMs?: number;
};

export type VadEvent =
  | { type: 'speech_started' }
  /** `audio`: the utterance, pre-roll included, hangover trimmed to a short tail. */
  | { type: 'speech_stopped'; audio: Int16Array };

export type Vad = {
  /** Feeds samples; answers what happened in them, in order. */
  push(samples: Int16Array): VadEvent[];
  readonly speaking: boolean;
};

export function createVad(options: VadOptions): Vad {
  const rate = options.sampleRate;
  const window = Math.max(1, Math.round((rate * (options.windowMs ?? 20)) / 1000));
  const windowsOf = (ms: number) => Math.max(1, Math.round((ms * rate) / 1000 / window));
  const minThreshold = options.minThreshold ?? 400;
  const floorRatio = options.floorRatio ?? 3;
  const startWindows = windowsOf(options.startMs ?? 60);
  const hangoverWindows = windowsOf(options.hangoverMs ?? 450);
  const preRollWindows = windowsOf(options.preRollMs ?? 300);
  const maxWindows = windowsOf(options.maxSpeechMs ?? 10_000);
  const tailWindows = Math.min(hangoverWindows, windowsOf(150));

  let pending = new Int16Array(0);
  let floor = minThreshold / floorRatio;
  let loudRun = 0;
  let quietRun = 0;
  let speaking = false;
  /** Recent windows while quiet (the pre-roll), or the utterance while speaking. */
  let kept: Int16Array[] = [];

  function stop(events: VadEvent[]) {
    const windows = kept.slice(0, Math.max(0, kept.length - quietRun + tailWindows));
    const audio = new Int16Array(windows.reduce((n, w) => n + w.length, 0));
    let at = 0;
    for (const w of windows) {
      audio.set(w, at);
      at += w.length;
    }
    events.push({ type: 'speech_stopped', audio });
    speaking = false;
    kept = [];
    loudRun = 0;
    quietRun = 0;
  }

  function step(frame: Int16Array, events: VadEvent[]) {
    const energy = rms(frame);
    const loud = energy >= Math.max(minThreshold, floor * floorRatio);
    // The floor drifts down fast and up slowly, only on quiet windows.
    if (!loud) floor = energy < floor ? floor * 0.7 + energy * 0.3 : floor * 0.98 + energy * 0.02;
    kept.push(frame);
    if (!speaking) {
      loudRun = loud ? loudRun + 1 : 0;
      if (kept.length > preRollWindows + startWindows) kept.shift();
      if (loudRun >= startWindows) {
        speaking = true;
        quietRun = 0;
        events.push({ type: 'speech_started' });
      }
      return;
    }
    quietRun = loud ? 0 : quietRun + 1;
    if (quietRun >= hangoverWindows || kept.length >= maxWindows) stop(events);
  }

  return {
    get speaking() {
      return speaking;
    },
    push(samples) {
      const events: VadEvent[] = [];
      const all = new Int16Array(pending.length + samples.length);
      all.set(pending);
      all.set(samples, pending.length);
      let at = 0;
      for (; at + window <= all.length; at += window) step(all.slice(at, at + window), events);
      pending = all.slice(at);
      return events;
    },
  };
}
