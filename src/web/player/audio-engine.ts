// The ONE audio engine: the only code that touches <audio> elements. The provider
// tells it what to play (the machine's current item), what comes next and the levels; the
// engine reports the element's own events (time, duration, play, outside pauses, end).
//
// Gapless by two elements: the "active" one plays the current item, the "standby" one holds
// the next queued item, fully preloaded (preload="auto"), which also makes Next start at
// once. In the last second of the active item a fine timer watches its position and starts
// the standby element HANDOVER_LEAD_S before the end, so its first samples follow the last
// ones of the active item; the two then swap roles. The old element plays out its final
// milliseconds (a preload into it waits for that) and its events are no longer reported.
// Without that timer (a background tab throttles timers) the swap happens on `ended`.
//
// Both elements feed one Web Audio context through their own gain node (loudness-graph.ts),
// made on the first play (a click). `data-testid="player-audio"` is on the element playing
// the current item (journeys and the playback bench read it); the standby element carries
// `data-testid="player-audio-next"`. Each carries `data-gain` (the linear gain applied) and
// plays at its track's rate (episodes at the listener's speed, pitch preserved).
import { elementVolume } from './loudness-gain.ts';
import { connectLoudnessGraph, type LoudnessGraph } from './loudness-graph.ts';

export interface EngineTrack {
  /** The machine's item id. */
  id: string;
  /** The file to stream (rendition-choice.ts). */
  url: string;
  /** Linear loudness gain; 1 plays the file as mastered. */
  gain: number;
  /** Playback speed (episodes: the listener's choice; songs 1), pitch kept. */
  rate: number;
}

export interface EngineListener {
  /** The position; `playing` is false for updates while paused (a seek, a load). */
  time(seconds: number, playing: boolean): void;
  duration(seconds: number): void;
  started(): void;
  /** Paused by something else than the engine's caller (media keys, the OS, a stall). */
  paused(): void;
  /** The current item finished: the standby one may already be playing in its place. */
  ended(): void;
  failed(): void;
}

const ACTIVE_ID = 'player-audio';
const STANDBY_ID = 'player-audio-next';
/** How long before the end the next element is started: play() takes this long to sound. */
export const HANDOVER_LEAD_S = 0.03;
/** From this much before the end, the position is watched closely. */
const WATCH_FROM_S = 1.2;
const WATCH_EVERY_MS = 4;

interface Slot {
  el: HTMLAudioElement;
  /** undefined: not tried yet (made on the first play, a gesture). */
  graph: LoudnessGraph | null | undefined;
  track: EngineTrack | null;
  /** Which start of the track this is (the machine's playId); null after a handover, until
   * the machine's next playId is adopted. */
  playId: number | null;
}

function makeSlot(host: HTMLElement, testId: string): Slot {
  const el = document.createElement('audio');
  // The loudness graph reads the samples: cross-origin media must allow it.
  el.crossOrigin = 'anonymous';
  el.preload = 'metadata';
  el.dataset.testid = testId;
  host.append(el);
  return { el, graph: undefined, track: null, playId: null };
}

const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

export class AudioEngine {
  private active: Slot;
  private standby: Slot;
  /** The standby element holds the item the machine plays after the current one ends. */
  private nextExpected = false;
  /** A preload that waits until the old element has played out its tail. */
  private deferredPreload: EngineTrack | null | undefined;
  private watch: ReturnType<typeof setInterval> | null = null;
  private volume = 70;
  private muted = false;
  private graphsWanted = false;
  private readonly cleanups: Array<() => void> = [];

  constructor(
    host: HTMLElement,
    private readonly listener: EngineListener,
  ) {
    this.active = makeSlot(host, ACTIVE_ID);
    this.standby = makeSlot(host, STANDBY_ID);
    for (const slot of [this.active, this.standby]) this.wire(slot);
  }

  /** The current item's position now (seconds), between time updates. */
  get position(): number {
    return this.active.el.currentTime;
  }

  /** What this browser says it plays (rendition-choice.ts). */
  canPlayType(mime: string): string {
    return this.active.el.canPlayType(mime);
  }

  /**
   * Makes `track` the current item. The same start (id and playId) only follows a new file
   * or gain (quality switched: carries on from where it was); a new start begins at `at`
   * seconds (0 unless restoring), from the standby element when it holds that file.
   */
  show(track: EngineTrack, playId: number, at = 0): void {
    const a = this.active;
    // A null playId is the item handed over at the end: the machine's new start adopts it.
    const sameStart = a.track?.id === track.id && (a.playId === playId || a.playId === null);
    if (sameStart) {
      a.playId = playId;
      if (a.track?.url !== track.url) {
        // After a failed load the element may have lost its place: the caller's is used.
        const resumeAt = a.el.currentTime > 0 ? a.el.currentTime : at;
        const wasPlaying = !a.el.paused;
        this.setSource(a, track);
        if (resumeAt > 0) a.el.currentTime = resumeAt;
        // A new source stops the element: it goes on in the new file.
        if (wasPlaying) this.play();
      } else {
        a.track = track;
      }
      this.applyLevels(a);
      return;
    }
    this.stopWatching();
    const s = this.standby;
    if (s.track?.id === track.id && s.track.url === track.url && !this.tailing(s)) {
      // Prefetched: swap, so it starts without a request.
      a.el.pause();
      this.swap();
      s.track = track;
      if (s.el.currentTime !== at) s.el.currentTime = at;
    } else if (a.track?.url === track.url) {
      // The same file again (repeat one, previous after 3 s): rewind, no new request.
      a.track = track;
      a.el.currentTime = at;
    } else {
      a.el.pause();
      this.setSource(a, track);
      if (at > 0) a.el.currentTime = at;
    }
    this.active.playId = playId;
    this.applyLevels(this.active);
    const { duration, currentTime } = this.active.el;
    if (Number.isFinite(duration)) this.listener.duration(duration);
    this.listener.time(currentTime, false);
  }

  /** Nothing is current any more (the machine cleared it). */
  clear(): void {
    this.stopWatching();
    for (const slot of [this.active, this.standby]) {
      slot.el.pause();
      slot.el.removeAttribute('src');
      slot.el.load();
      slot.track = null;
      slot.playId = null;
    }
    this.nextExpected = false;
  }

  /** What plays after the current item ends, or null when the machine will not go on to a
   * queued item (repeat one, empty queue): then nothing is handed over. */
  preload(track: EngineTrack | null): void {
    if (this.tailing(this.standby)) {
      this.deferredPreload = track;
      this.nextExpected = false;
      return;
    }
    this.deferredPreload = undefined;
    this.nextExpected = track !== null;
    if (!track) return;
    const s = this.standby;
    if (s.track?.id === track.id && s.track.url === track.url) {
      s.track = track;
    } else {
      this.setSource(s, track);
      s.el.preload = 'auto';
      s.el.load();
    }
    if (this.graphsWanted) this.ensureGraph(s);
    this.applyLevels(s);
  }

  play(): void {
    const a = this.active;
    if (!a.track) return;
    // The first play comes from a gesture: the context may start now, for both elements.
    this.graphsWanted = true;
    this.ensureGraph(a);
    this.ensureGraph(this.standby);
    this.applyLevels(a);
    a.graph?.wake();
    a.el.preload = 'auto';
    if (!a.el.paused) return;
    a.el.play().catch((e: unknown) => {
      // A newer load or a pause interrupted this play: not a failure.
      if (isAbort(e)) return;
      // Blocked autoplay or an unplayable source: shown as paused.
      this.listener.paused();
    });
  }

  pause(): void {
    this.stopWatching();
    if (!this.active.el.paused) this.active.el.pause();
  }

  seek(seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    this.stopWatching();
    this.active.el.currentTime = Math.max(0, seconds);
  }

  setLevels(volume: number, muted: boolean): void {
    this.volume = volume;
    this.muted = muted;
    this.applyLevels(this.active);
    this.applyLevels(this.standby);
  }

  destroy(): void {
    this.stopWatching();
    for (const cleanup of this.cleanups) cleanup();
    for (const slot of [this.active, this.standby]) {
      slot.el.pause();
      slot.el.remove();
    }
  }

  private setSource(slot: Slot, track: EngineTrack) {
    slot.track = track;
    slot.el.src = track.url;
  }

  private ensureGraph(slot: Slot) {
    if (slot.graph === undefined) slot.graph = connectLoudnessGraph(slot.el);
  }

  /** The gain on the graph, else folded into the element's volume (capped at 1). */
  private applyLevels(slot: Slot) {
    const gain = slot.track?.gain ?? 1;
    slot.graph?.setGain(gain);
    slot.el.volume = elementVolume(this.volume, gain, Boolean(slot.graph));
    slot.el.muted = this.muted;
    // What is applied, for anyone checking (and the browser journeys).
    slot.el.dataset.gain = String(gain);
    // A new source resets playbackRate to defaultPlaybackRate: both carry the track's.
    const rate = slot.track?.rate ?? 1;
    slot.el.preservesPitch = true;
    if (slot.el.defaultPlaybackRate !== rate) slot.el.defaultPlaybackRate = rate;
    if (slot.el.playbackRate !== rate) slot.el.playbackRate = rate;
  }

  /** The old element still playing out its last milliseconds after a handover. */
  private tailing(slot: Slot): boolean {
    return slot !== this.active && !slot.el.paused && !slot.el.ended;
  }

  private swap() {
    const old = this.active;
    this.active = this.standby;
    this.standby = old;
    this.active.el.dataset.testid = ACTIVE_ID;
    this.standby.el.dataset.testid = STANDBY_ID;
    this.standby.playId = null;
    this.nextExpected = false;
  }

  /** Starts the preloaded next item in place of the current one. */
  private handOver() {
    this.stopWatching();
    const next = this.standby;
    if (!this.nextExpected || !next.track) return false;
    this.ensureGraph(next);
    next.graph?.wake();
    this.applyLevels(next);
    if (next.el.currentTime !== 0) next.el.currentTime = 0;
    next.el.preload = 'auto';
    next.el.play().catch((e: unknown) => {
      if (!isAbort(e)) this.listener.paused();
    });
    this.swap();
    this.active.playId = null;
    this.listener.time(0, false);
    this.listener.ended();
    return true;
  }

  private watchEnd() {
    if (this.watch !== null || !this.nextExpected) return;
    this.watch = setInterval(() => {
      const a = this.active.el;
      const left = a.duration - a.currentTime;
      if (a.paused || !Number.isFinite(left)) return this.stopWatching();
      if (left <= HANDOVER_LEAD_S) this.handOver();
    }, WATCH_EVERY_MS);
  }

  private stopWatching() {
    if (this.watch !== null) clearInterval(this.watch);
    this.watch = null;
  }

  private wire(slot: Slot) {
    const el = slot.el;
    const isActive = () => slot === this.active;
    const on = (type: string, handler: () => void) => {
      el.addEventListener(type, handler);
      this.cleanups.push(() => el.removeEventListener(type, handler));
    };
    on('timeupdate', () => {
      if (!isActive()) return;
      this.listener.time(el.currentTime, !el.paused);
      const left = el.duration - el.currentTime;
      const ready = this.standby.el.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA;
      if (!el.paused && ready && Number.isFinite(left) && left < WATCH_FROM_S) this.watchEnd();
    });
    on('durationchange', () => {
      if (isActive()) this.listener.duration(el.duration);
    });
    on('play', () => {
      if (isActive()) this.listener.started();
    });
    on('pause', () => {
      // The element pauses itself at the end; `ended` says what happened then.
      if (isActive() && !el.ended) this.listener.paused();
      else this.afterTail(slot);
    });
    on('ended', () => {
      if (!isActive()) return this.afterTail(slot);
      // No fine timer ran (a background tab): hand over now, else just report the end.
      if (!this.handOver()) this.listener.ended();
    });
    on('error', () => {
      if (isActive()) this.listener.failed();
    });
  }

  /** The old element has played out: a preload that waited may use it now. */
  private afterTail(slot: Slot) {
    if (slot !== this.standby || this.deferredPreload === undefined) return;
    const track = this.deferredPreload;
    this.deferredPreload = undefined;
    this.preload(track);
  }
}
