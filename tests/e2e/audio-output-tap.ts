// What the page sends to its speakers, a millisecond at a time: used by the gapless journey
// (player-engine.spec.ts) and the playback bench to find the silence between two songs.

/**
 * For page.addInitScript: every node connected to an AudioContext's destination is also fed
 * to a recorder that pushes, per millisecond of output, whether it sounded (peak > 0.01)
 * onto `window.outputMs`. Self-contained: it runs in the page.
 */
export function installOutputTap(): void {
  const w = window as unknown as { outputMs: boolean[] };
  w.outputMs = [];
  const connect = AudioNode.prototype.connect as (this: AudioNode, ...a: unknown[]) => unknown;
  const taps = new WeakMap<BaseAudioContext, ScriptProcessorNode>();
  AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
    const out = connect.apply(this, args);
    if (args[0] instanceof AudioDestinationNode) {
      const ctx = this.context;
      let tap = taps.get(ctx);
      if (!tap) {
        tap = ctx.createScriptProcessor(256, 1, 1);
        const perMs = Math.round(ctx.sampleRate / 1000);
        // Milliseconds run across the processor's buffers.
        let samples = 0;
        let peak = 0;
        tap.onaudioprocess = (e) => {
          for (const x of e.inputBuffer.getChannelData(0)) {
            peak = Math.max(peak, Math.abs(x));
            if (++samples < perMs) continue;
            w.outputMs.push(peak > 0.01);
            samples = 0;
            peak = 0;
          }
        };
        connect.call(tap, ctx.destination);
        taps.set(ctx, tap);
      }
      connect.call(this, tap);
    }
    return out;
  } as typeof AudioNode.prototype.connect;
}

/** Milliseconds heard, and the longest silence between the first and the last sound. */
export function silenceBetween(outputMs: readonly boolean[]): { heard: number; longest: number } {
  const first = outputMs.indexOf(true);
  const last = outputMs.lastIndexOf(true);
  let longest = 0;
  let silence = 0;
  let heard = 0;
  for (let i = first; first >= 0 && i <= last; i++) {
    if (outputMs[i]) {
      heard += 1;
      silence = 0;
    } else {
      silence += 1;
      longest = Math.max(longest, silence);
    }
  }
  return { heard, longest };
}
