// The Web Audio path for loudness normalisation: element → GainNode → speakers. A gain node
// can boost as well as cut, which `audio.volume` (at most 1) cannot. Once an element feeds a
// graph it plays only through it, so the graph is made once, on the first play (a click, so
// the context may start), and kept for the page's life.
//
// Media the graph reads must be same-origin or CORS-readable: the element is crossOrigin
// "anonymous", so a store or CDN on another origin (MEDIA_OFFLOAD=redirect) must allow it.

export interface LoudnessGraph {
  setGain(linear: number): void;
  /** A context made before a gesture, or suspended by the browser, must be resumed to sound. */
  wake(): void;
}

type AudioContextClass = typeof AudioContext;

export function connectLoudnessGraph(audio: HTMLAudioElement): LoudnessGraph | null {
  const Context: AudioContextClass | undefined =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
  if (!Context) return null;
  try {
    const context = new Context();
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
