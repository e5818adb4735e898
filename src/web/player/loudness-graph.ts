// The Web Audio path for loudness normalisation: element → GainNode → speakers. A gain node
// can boost as well as cut, which `audio.volume` (at most 1) cannot. Once an element feeds a
// graph it plays only through it, so each element's graph is made once and kept for the
// page's life. The player has two elements (gapless, audio-engine.ts); both feed ONE
// context, made on the first play (a click, so it may start), so they share one clock and
// one output and the handover between them lands in the same stream.
//
// Media the graph reads must be same-origin or CORS-readable: the elements are crossOrigin
// "anonymous", so a store or CDN on another origin (MEDIA_OFFLOAD=redirect) must allow it.

export interface LoudnessGraph {
  setGain(linear: number): void;
  /** A context made before a gesture, or suspended by the browser, must be resumed to sound. */
  wake(): void;
}

type AudioContextClass = typeof AudioContext;

/** One context per page: browsers cap how many may exist, and both elements share it. */
let shared: AudioContext | null | undefined;

function sharedContext(): AudioContext | null {
  if (shared !== undefined) return shared;
  const Context: AudioContextClass | undefined =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
  try {
    shared = Context ? new Context() : null;
  } catch {
    shared = null;
  }
  return shared;
}

export function connectLoudnessGraph(audio: HTMLAudioElement): LoudnessGraph | null {
  const context = sharedContext();
  if (!context) return null;
  try {
    const gain = context.createGain();
    context.createMediaElementSource(audio).connect(gain).connect(context.destination);
    return {
      setGain: (linear) => {
        gain.gain.setValueAtTime(linear, context.currentTime);
      },
      wake: () => {
        if (context.state !== 'running') context.resume().catch(() => undefined);
      },
    };
  } catch {
    // No graph (an old engine, or the element is already captured): volume scaling instead.
    return null;
  }
}
