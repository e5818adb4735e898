// The player as a pure machine (spec §3 Player state, §4 transitions, §9 limits): typed
// past-tense events in, new state out. No clock and no randomness of its own: time and the
// random source arrive inside events, so every transition is reproducible in a test. The
// <audio> element and every side effect live in the web provider.

/** Spec §3 Playable item; `podcastTitle` is the artist name for songs. */
export interface PlayableItem {
  id: string;
  title: string;
  audioUrl: string;
  podcastTitle: string;
  coverArt: string | null;
}

export type RepeatMode = 'off' | 'all' | 'one';

export interface PlayerState {
  current: PlayableItem | null;
  /** What the listener wants; the provider makes the element follow it. */
  playing: boolean;
  /** Seconds. */
  progress: number;
  /** Seconds; 0 while unknown. */
  duration: number;
  /** 0-100 (spec §9). */
  volume: number;
  /** The 'm' shortcut; `volume` is kept so unmuting brings it back. */
  muted: boolean;
  /** What plays next, in order. */
  queue: PlayableItem[];
  /** Most recent first, at most HISTORY_LIMIT. */
  history: PlayableItem[];
  shuffle: boolean;
  /** The queue's order from before shuffling, kept in step with the queue while shuffled. */
  unshuffledQueue: PlayableItem[] | null;
  repeat: RepeatMode;
  premium: boolean;
  /** Skips accepted since the last reset. */
  skipCount: number;
  /** Epoch ms of the last reset of `skipCount`. */
  skipWindowStartedAt: number;
  /** Epoch ms of the latest refused skip (the UI shows the toast when it changes). */
  skipBlockedAt: number | null;
  /** Bumped whenever the current item must (re)start from 0: the engine restarts on change. */
  playId: number;
}

export const DEFAULT_VOLUME = 70;
/** Spec §9: free users skip at most this many times per hour. */
export const SKIPS_PER_HOUR = 2;
export const SKIP_WINDOW_MS = 60 * 60 * 1000;
/** Spec §9. */
export const HISTORY_LIMIT = 50;
/** Spec §4: Previous restarts the item when progress is over this many seconds. */
export const PREVIOUS_RESTART_SECONDS = 3;

export const initialPlayerState: PlayerState = {
  current: null,
  playing: false,
  progress: 0,
  duration: 0,
  volume: DEFAULT_VOLUME,
  muted: false,
  queue: [],
  history: [],
  shuffle: false,
  unshuffledQueue: null,
  repeat: 'off',
  premium: false,
  skipCount: 0,
  skipWindowStartedAt: 0,
  skipBlockedAt: null,
  playId: 0,
};

export type PlayerEvent =
  /** Spec §4 load: plays a new item at once, or toggles play/pause when it is current. */
  | { type: 'itemLoaded'; item: PlayableItem }
  | { type: 'playToggled' }
  | { type: 'playbackStarted' }
  | { type: 'playbackPaused' }
  | { type: 'progressed'; progress: number }
  | { type: 'durationKnown'; duration: number }
  | { type: 'seeked'; progress: number }
  | { type: 'volumeChanged'; volume: number }
  | { type: 'muteToggled' }
  /** The track played to its end (repeat rules; never a skip). */
  | { type: 'ended' }
  /** The listener pressed Next: a skip. */
  | { type: 'nextRequested'; at: number }
  /** Over 3 s: restart (not a skip); else the latest history item (a skip). */
  | { type: 'previousRequested'; at: number }
  /** off → all → one → off. */
  | { type: 'repeatCycled' }
  /** `random` returns numbers in [0, 1), like Math.random. */
  | { type: 'shuffleToggled'; random: () => number }
  /** Adds to the end of the queue. */
  | { type: 'queued'; items: PlayableItem[] }
  | { type: 'queueItemRemoved'; index: number }
  | { type: 'queueItemMoved'; from: number; to: number }
  | { type: 'queueCleared' }
  /** A click in the queue panel: that item plays now (like loading it; not a skip). */
  | { type: 'queueItemPlayed'; index: number }
  | { type: 'premiumKnown'; premium: boolean }
  /** Every 60 s (spec §4): resets the skip counter when an hour has passed since the last reset. */
  | { type: 'skipClockTicked'; at: number }
  /** A saved state after a reload; always comes back paused. */
  | { type: 'restored'; state: Partial<PlayerState> };

/** Spec §2: Next is enabled when something is queued or repeat is 'all'. */
export function canGoNext(s: PlayerState): boolean {
  return s.queue.length > 0 || s.repeat === 'all';
}

/** Spec §2: Previous is enabled when there is history or progress is over 3 s. */
export function canGoPrevious(s: PlayerState): boolean {
  return s.history.length > 0 || s.progress > PREVIOUS_RESTART_SECONDS;
}

/** Spec §5/§9: premium skips without limit; free users twice per window. */
export function skipAllowed(s: PlayerState): boolean {
  return s.premium || s.skipCount < SKIPS_PER_HOUR;
}

/**
 * What the web keeps in localStorage so a reload brings back the queue, the item and its
 * position (docs/decisions/0015). Left out: `playing` (a reload always comes back paused),
 * `premium` (the server's subscription check decides it on every load; a stored true must
 * never grant unlimited skips), `skipBlockedAt` (a reload must not show the toast again)
 * and `playId` (a counter for this page's engine only). The skip counter and its window DO
 * persist: otherwise reloading the page would hand a free user two fresh skips.
 */
export type PersistedPlayer = Pick<
  PlayerState,
  | 'current'
  | 'progress'
  | 'duration'
  | 'volume'
  | 'muted'
  | 'queue'
  | 'history'
  | 'shuffle'
  | 'unshuffledQueue'
  | 'repeat'
  | 'skipCount'
  | 'skipWindowStartedAt'
>;

export function persistable(s: PlayerState): PersistedPlayer {
  return {
    current: s.current,
    progress: s.progress,
    duration: s.duration,
    volume: s.volume,
    muted: s.muted,
    queue: s.queue,
    history: s.history,
    shuffle: s.shuffle,
    unshuffledQueue: s.unshuffledQueue,
    repeat: s.repeat,
    skipCount: s.skipCount,
    skipWindowStartedAt: s.skipWindowStartedAt,
  };
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const finite = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
/** Progress never runs past a known duration. */
const within = (progress: number, duration: number) =>
  duration > 0 ? Math.min(finite(progress), duration) : finite(progress);
const validIndex = (i: number, length: number) => Number.isInteger(i) && i >= 0 && i < length;

const REPEAT_AFTER: Record<RepeatMode, RepeatMode> = { off: 'all', all: 'one', one: 'off' };

const remember = (history: PlayableItem[], item: PlayableItem | null) =>
  item ? [item, ...history].slice(0, HISTORY_LIMIT) : history;

/** Drops the first entry with this id (items are told apart by id; equal ids are the same item). */
function withoutOne(items: PlayableItem[], id: string): PlayableItem[] {
  const i = items.findIndex((it) => it.id === id);
  return i < 0 ? items : [...items.slice(0, i), ...items.slice(i + 1)];
}

/** Fisher–Yates with the injected source; out-of-range draws are clamped, never trusted. */
function shuffled(items: PlayableItem[], random: () => number): PlayableItem[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const r = random();
    const j = Number.isFinite(r) ? clamp(Math.floor(r * (i + 1)), 0, i) : 0;
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The queue lost the entry at `index` (removed or played). While shuffled the saved order
 * loses the same item too, so shuffle off never brings back something already gone.
 */
function takeFromQueue(
  s: PlayerState,
  index: number,
): Pick<PlayerState, 'queue' | 'unshuffledQueue'> {
  const gone = s.queue[index]!;
  return {
    queue: [...s.queue.slice(0, index), ...s.queue.slice(index + 1)],
    unshuffledQueue: s.unshuffledQueue && withoutOne(s.unshuffledQueue, gone.id),
  };
}

/** Starts `item` from 0 now; the item that was playing goes to history. */
function playNew(s: PlayerState, item: PlayableItem): PlayerState {
  return {
    ...s,
    history: remember(s.history, s.current),
    current: item,
    playing: true,
    progress: 0,
    duration: 0,
    playId: s.playId + 1,
  };
}

/** The current item again from 0, playing. */
const replay = (s: PlayerState): PlayerState => ({
  ...s,
  playing: true,
  progress: 0,
  playId: s.playId + 1,
});

/** The first queued item plays; the one before goes to history. */
const advance = (s: PlayerState): PlayerState =>
  playNew({ ...s, ...takeFromQueue(s, 0) }, s.queue[0]!);

const counted = (s: PlayerState): PlayerState => ({ ...s, skipCount: s.skipCount + 1 });

function next(s: PlayerState, at: number): PlayerState {
  // Nothing was playing, so nothing is skipped: just start the queue.
  if (!s.current) return s.queue.length > 0 ? advance(s) : s;
  if (!canGoNext(s)) return s;
  if (!skipAllowed(s)) return { ...s, skipBlockedAt: at };
  // Spec §2 keeps Next enabled with repeat 'all' and an empty queue: it plays the item again.
  return counted(s.queue.length > 0 ? advance(s) : replay(s));
}

function previous(s: PlayerState, at: number): PlayerState {
  if (!s.current) return s;
  // Over 3 s, or nothing to go back to: restart, which is not a skip.
  if (s.progress > PREVIOUS_RESTART_SECONDS || s.history.length === 0) return replay(s);
  if (!skipAllowed(s)) return { ...s, skipBlockedAt: at };
  const [back, ...older] = s.history as [PlayableItem, ...PlayableItem[]];
  return counted({
    ...s,
    current: back,
    history: older,
    queue: [s.current, ...s.queue],
    unshuffledQueue: s.unshuffledQueue && [s.current, ...s.unshuffledQueue],
    playing: true,
    progress: 0,
    duration: 0,
    playId: s.playId + 1,
  });
}

function ended(s: PlayerState): PlayerState {
  if (!s.current) return s;
  if (s.repeat === 'one') return replay(s);
  if (s.queue.length > 0) return advance(s);
  if (s.repeat === 'all') return replay(s);
  // Nothing left: stop at the start of the item (bumped so the engine rewinds it).
  return { ...s, playing: false, progress: 0, playId: s.playId + 1 };
}

/**
 * Shuffle on: the queue's order is saved and the queue randomized. While shuffled, the
 * saved order follows the queue's content: items added go to the end of both (they play
 * after what was queued, as "Add to queue" promises), items removed or played leave both,
 * Previous puts the current item at the front of both, a move changes only the shuffled
 * order, Clear empties both. Shuffle off puts the saved order back.
 */
function toggleShuffle(s: PlayerState, random: () => number): PlayerState {
  if (s.shuffle)
    return { ...s, shuffle: false, queue: s.unshuffledQueue ?? s.queue, unshuffledQueue: null };
  return { ...s, shuffle: true, unshuffledQueue: s.queue, queue: shuffled(s.queue, random) };
}

function playFromQueue(s: PlayerState, index: number): PlayerState {
  if (!validIndex(index, s.queue.length)) return s;
  const item = s.queue[index]!;
  const rest = { ...s, ...takeFromQueue(s, index) };
  // The item is already current: play it again from 0 rather than listing it in history twice.
  return s.current?.id === item.id ? replay(rest) : playNew(rest, item);
}

function move(s: PlayerState, from: number, to: number): PlayerState {
  if (!validIndex(from, s.queue.length) || !validIndex(to, s.queue.length) || from === to) return s;
  const queue = [...s.queue];
  const [item] = queue.splice(from, 1);
  queue.splice(to, 0, item!);
  return { ...s, queue };
}

function isItem(v: unknown): v is PlayableItem {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.id === 'string' &&
    typeof o.title === 'string' &&
    typeof o.audioUrl === 'string' &&
    typeof o.podcastTitle === 'string' &&
    (o.coverArt === null || typeof o.coverArt === 'string')
  );
}

const items = (v: unknown): PlayableItem[] | undefined =>
  Array.isArray(v) ? v.filter(isItem) : undefined;

function sameItems(a: PlayableItem[], b: PlayableItem[]): boolean {
  if (a.length !== b.length) return false;
  const count = new Map<string, number>();
  for (const it of a) count.set(it.id, (count.get(it.id) ?? 0) + 1);
  for (const it of b) {
    const n = count.get(it.id) ?? 0;
    if (n === 0) return false;
    count.set(it.id, n - 1);
  }
  return true;
}

/**
 * A saved state comes from storage the listener controls and older versions of the app:
 * each field is checked and an unusable one keeps the value it had. Always paused; the
 * premium flag and the engine's playId are never taken from storage.
 */
function restore(s: PlayerState, saved: Partial<PlayerState>): PlayerState {
  const raw = (typeof saved === 'object' && saved !== null ? saved : {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const current = raw.current === null ? null : isItem(raw.current) ? raw.current : s.current;
  const duration = finite(num(raw.duration) ?? s.duration);
  const queue = items(raw.queue) ?? s.queue;
  const shuffle = typeof raw.shuffle === 'boolean' ? raw.shuffle : s.shuffle;
  const saved0 = items(raw.unshuffledQueue);
  // A saved order that does not hold the queue's items can't be restored faithfully: the
  // queue's present order becomes the one shuffle off returns to.
  const unshuffledQueue = shuffle ? (saved0 && sameItems(saved0, queue) ? saved0 : queue) : null;
  const volume = num(raw.volume);
  const skipCount = num(raw.skipCount);
  return {
    ...s,
    current,
    playing: false,
    duration,
    progress: current ? within(num(raw.progress) ?? s.progress, duration) : 0,
    volume: volume === undefined ? s.volume : Math.round(clamp(volume, 0, 100)),
    muted: typeof raw.muted === 'boolean' ? raw.muted : s.muted,
    queue,
    history: (items(raw.history) ?? s.history).slice(0, HISTORY_LIMIT),
    shuffle,
    unshuffledQueue,
    repeat:
      raw.repeat === 'off' || raw.repeat === 'all' || raw.repeat === 'one' ? raw.repeat : s.repeat,
    skipCount: skipCount === undefined ? s.skipCount : Math.max(0, Math.floor(skipCount)),
    skipWindowStartedAt: num(raw.skipWindowStartedAt) ?? s.skipWindowStartedAt,
  };
}

export function playerReducer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'itemLoaded':
      // Spec §4: loading the item that is already current toggles play/pause.
      if (state.current?.id === event.item.id) return { ...state, playing: !state.playing };
      return playNew(state, event.item);
    case 'playToggled':
      return state.current ? { ...state, playing: !state.playing } : state;
    case 'playbackStarted':
      return state.playing || !state.current ? state : { ...state, playing: true };
    case 'playbackPaused':
      return state.playing ? { ...state, playing: false } : state;
    case 'progressed':
    case 'seeked':
      // With nothing loaded there is no position to move.
      return state.current ? { ...state, progress: within(event.progress, state.duration) } : state;
    case 'durationKnown': {
      const duration = finite(event.duration);
      return { ...state, duration, progress: within(state.progress, duration) };
    }
    case 'volumeChanged':
      if (Number.isNaN(event.volume)) return state;
      // Moving the slider is asking to hear it: it unmutes, as in most players.
      return {
        ...state,
        volume: Math.round(clamp(event.volume, 0, 100)),
        muted: event.volume > 0 ? false : state.muted,
      };
    case 'muteToggled':
      return { ...state, muted: !state.muted };
    case 'ended':
      return ended(state);
    case 'nextRequested':
      return next(state, event.at);
    case 'previousRequested':
      return previous(state, event.at);
    case 'repeatCycled':
      return { ...state, repeat: REPEAT_AFTER[state.repeat] };
    case 'shuffleToggled':
      return toggleShuffle(state, event.random);
    case 'queued': {
      const added = event.items.filter(isItem);
      if (added.length === 0) return state;
      return {
        ...state,
        queue: [...state.queue, ...added],
        unshuffledQueue: state.unshuffledQueue && [...state.unshuffledQueue, ...added],
      };
    }
    case 'queueItemRemoved':
      return validIndex(event.index, state.queue.length)
        ? { ...state, ...takeFromQueue(state, event.index) }
        : state;
    case 'queueItemMoved':
      return move(state, event.from, event.to);
    case 'queueCleared':
      return { ...state, queue: [], unshuffledQueue: state.shuffle ? [] : null };
    case 'queueItemPlayed':
      return playFromQueue(state, event.index);
    case 'premiumKnown':
      return state.premium === event.premium ? state : { ...state, premium: event.premium };
    case 'skipClockTicked':
      // Spec §4: an hour since the last reset, checked on each tick.
      return event.at - state.skipWindowStartedAt >= SKIP_WINDOW_MS
        ? { ...state, skipCount: 0, skipWindowStartedAt: event.at }
        : state;
    case 'restored':
      return restore(state, event.state);
  }
}
