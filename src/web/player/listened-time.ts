// How much of a play was actually heard: the total of forward steps of the
// playing position, not the position itself, so a seek forward adds nothing, a seek back
// does not take anything away, and replayed parts count again as heard.

/** A step longer than this between two ticks is a jump (or a throttled tab), not listening:
 * the element reports its time about every 250 ms while playing. */
export const MAX_STEP_SECONDS = 5;

export interface ListenedClock {
  heardMs: number;
  /** The position last seen while playing; null after a pause or a seek. */
  lastPosition: number | null;
}

export const freshClock: ListenedClock = { heardMs: 0, lastPosition: null };

/** The position while playing: a small forward step since the last one was heard. */
export function clockTicked(clock: ListenedClock, position: number): ListenedClock {
  if (!Number.isFinite(position) || position < 0) return clock;
  const last = clock.lastPosition;
  const step = last === null ? 0 : position - last;
  const heard = step > 0 && step <= MAX_STEP_SECONDS ? step * 1000 : 0;
  return { heardMs: clock.heardMs + heard, lastPosition: position };
}

/** Paused or sought: the next tick starts counting again from where it then is. */
export const clockStopped = (clock: ListenedClock): ListenedClock =>
  clock.lastPosition === null ? clock : { ...clock, lastPosition: null };

/** What the server is told: whole milliseconds. */
export const listenedMs = (clock: ListenedClock): number => Math.round(clock.heardMs);
