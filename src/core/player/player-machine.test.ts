import { describe, expect, it } from 'vitest';
import {
  canGoNext,
  canGoPrevious,
  HISTORY_LIMIT,
  initialPlayerState,
  persistable,
  playerReducer,
  SKIP_WINDOW_MS,
  skipAllowed,
  type PlayableItem,
  type PlayerEvent,
  type PlayerState,
} from './player-machine.ts';

const item = (id: string): PlayableItem => ({
  id,
  title: `Song ${id}`,
  audioUrl: `/media/music/${id}.wav`,
  podcastTitle: 'Artist',
  coverArt: null,
});
const ids = (items: PlayableItem[] | null) => items?.map((i) => i.id) ?? null;
const run = (s: PlayerState, ...events: PlayerEvent[]) => events.reduce(playerReducer, s);
/** Plays `current` with the given queue and history, 10 s in (past the Previous threshold). */
const playing = (
  current: string,
  queue: string[] = [],
  history: string[] = [],
  more: Partial<PlayerState> = {},
): PlayerState => ({
  ...initialPlayerState,
  current: item(current),
  playing: true,
  progress: 10,
  duration: 180,
  queue: queue.map(item),
  history: history.map(item),
  playId: 5,
  ...more,
});
const T0 = 1_700_000_000_000;
/** A source that always draws 0: Fisher–Yates then rotates the list left by one. */
const zero = () => 0;

describe('loading and play/pause', () => {
  it('starts with nothing loaded at volume 70, repeat off, no shuffle', () => {
    expect(initialPlayerState).toMatchObject({
      current: null,
      playing: false,
      volume: 70,
      muted: false,
      queue: [],
      history: [],
      shuffle: false,
      unshuffledQueue: null,
      repeat: 'off',
      premium: false,
      skipCount: 0,
      skipBlockedAt: null,
    });
  });

  it('loading a new item plays it from the start and puts the old one first in history', () => {
    const s = playerReducer(playing('a', ['q'], ['h'], { playing: false, progress: 12 }), {
      type: 'itemLoaded',
      item: item('b'),
    });
    expect(s).toMatchObject({ current: { id: 'b' }, playing: true, progress: 0, duration: 0 });
    expect(s.playId).toBe(6);
    expect(ids(s.history)).toEqual(['a', 'h']);
    // Loading is not a skip and leaves the queue alone.
    expect(s.skipCount).toBe(0);
    expect(ids(s.queue)).toEqual(['q']);
  });

  it('loading with nothing current plays without adding to history', () => {
    const s = playerReducer(initialPlayerState, { type: 'itemLoaded', item: item('a') });
    expect(s).toMatchObject({ current: { id: 'a' }, playing: true, history: [], playId: 1 });
  });

  it('history keeps the latest 50, most recent first', () => {
    let s = initialPlayerState;
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) {
      s = playerReducer(s, { type: 'itemLoaded', item: item(`s${i}`) });
    }
    expect(s.history).toHaveLength(HISTORY_LIMIT);
    expect(s.history[0]!.id).toBe(`s${HISTORY_LIMIT + 3}`);
    expect(s.history.at(-1)!.id).toBe('s4');
  });

  it('loading the current item toggles play/pause and keeps its position', () => {
    let s = playerReducer(initialPlayerState, { type: 'itemLoaded', item: item('a') });
    s = playerReducer({ ...s, progress: 5 }, { type: 'itemLoaded', item: item('a') });
    expect(s).toMatchObject({ playing: false, progress: 5, playId: 1, history: [] });
    s = playerReducer(s, { type: 'itemLoaded', item: item('a') });
    expect(s.playing).toBe(true);
  });

  it('toggling with nothing loaded does nothing', () => {
    expect(playerReducer(initialPlayerState, { type: 'playToggled' })).toBe(initialPlayerState);
  });

  it('toggling flips playing', () => {
    expect(playerReducer(playing('a'), { type: 'playToggled' }).playing).toBe(false);
  });

  it('the element starting or pausing is followed, but never plays with nothing loaded', () => {
    expect(
      playerReducer(playing('a', [], [], { playing: false }), { type: 'playbackStarted' }).playing,
    ).toBe(true);
    expect(playerReducer(playing('a'), { type: 'playbackPaused' }).playing).toBe(false);
    expect(playerReducer(initialPlayerState, { type: 'playbackStarted' }).playing).toBe(false);
  });
});

describe('position and volume', () => {
  it('seeking stays within the known duration', () => {
    const s = { ...initialPlayerState, current: item('a'), duration: 30 };
    expect(playerReducer(s, { type: 'seeked', progress: 45 }).progress).toBe(30);
    expect(playerReducer(s, { type: 'seeked', progress: -3 }).progress).toBe(0);
    expect(playerReducer(s, { type: 'seeked', progress: 12.5 }).progress).toBe(12.5);
  });

  it('progress reports are clamped to the duration, and a shorter duration pulls progress in', () => {
    const s = playing('a', [], [], { duration: 30, progress: 0 });
    expect(playerReducer(s, { type: 'progressed', progress: 31 }).progress).toBe(30);
    expect(playerReducer(s, { type: 'progressed', progress: NaN }).progress).toBe(0);
    const late = playerReducer(
      { ...s, duration: 0, progress: 50 },
      { type: 'durationKnown', duration: 40 },
    );
    expect(late).toMatchObject({ duration: 40, progress: 40 });
  });

  it('with nothing loaded, progress and seeks are ignored', () => {
    expect(playerReducer(initialPlayerState, { type: 'progressed', progress: 8 })).toBe(
      initialPlayerState,
    );
    expect(playerReducer(initialPlayerState, { type: 'seeked', progress: 8 })).toBe(
      initialPlayerState,
    );
  });

  it('an unknown duration reads as 0', () => {
    const s = playerReducer(initialPlayerState, { type: 'durationKnown', duration: Infinity });
    expect(s.duration).toBe(0);
  });

  it('volume is a whole number from 0 to 100', () => {
    const v = (volume: number) =>
      playerReducer(initialPlayerState, { type: 'volumeChanged', volume }).volume;
    expect(v(140)).toBe(100);
    expect(v(33.4)).toBe(33);
    expect(v(-5)).toBe(0);
    expect(v(-Infinity)).toBe(0);
    expect(v(NaN)).toBe(70);
  });

  it('mute keeps the volume; moving the volume above 0 unmutes', () => {
    const muted = playerReducer({ ...initialPlayerState, volume: 40 }, { type: 'muteToggled' });
    expect(muted).toMatchObject({ muted: true, volume: 40 });
    expect(playerReducer(muted, { type: 'muteToggled' })).toMatchObject({
      muted: false,
      volume: 40,
    });
    expect(playerReducer(muted, { type: 'volumeChanged', volume: 0 }).muted).toBe(true);
    expect(playerReducer(muted, { type: 'volumeChanged', volume: 55 })).toMatchObject({
      muted: false,
      volume: 55,
    });
  });
});

describe('repeat', () => {
  it('cycles off → all → one → off', () => {
    const modes: string[] = [];
    let s = initialPlayerState;
    for (let i = 0; i < 4; i++) {
      s = playerReducer(s, { type: 'repeatCycled' });
      modes.push(s.repeat);
    }
    expect(modes).toEqual(['all', 'one', 'off', 'all']);
  });
});

describe('track end', () => {
  it('repeat one replays the item from 0 even with a queue', () => {
    const s = playerReducer(playing('a', ['b'], [], { repeat: 'one', progress: 180 }), {
      type: 'ended',
    });
    expect(s).toMatchObject({ current: { id: 'a' }, playing: true, progress: 0, playId: 6 });
    expect(ids(s.queue)).toEqual(['b']);
    expect(s.history).toEqual([]);
  });

  it('repeat all with an empty queue replays the item', () => {
    const s = playerReducer(playing('a', [], ['h'], { repeat: 'all', progress: 180 }), {
      type: 'ended',
    });
    expect(s).toMatchObject({ current: { id: 'a' }, playing: true, progress: 0, playId: 6 });
    expect(ids(s.history)).toEqual(['h']);
  });

  it('with a queue, the next item plays and the ended one goes to history (not a skip)', () => {
    for (const repeat of ['off', 'all'] as const) {
      const s = playerReducer(playing('a', ['b', 'c'], ['h'], { repeat, progress: 180 }), {
        type: 'ended',
      });
      expect(s).toMatchObject({ current: { id: 'b' }, playing: true, progress: 0, duration: 0 });
      expect(s.playId).toBe(6);
      expect(ids(s.queue)).toEqual(['c']);
      expect(ids(s.history)).toEqual(['a', 'h']);
      expect(s.skipCount).toBe(0);
    }
  });

  it('nothing queued and repeat off: it stops and rewinds', () => {
    const s = playerReducer(playing('a', [], [], { progress: 29 }), { type: 'ended' });
    expect(s).toMatchObject({ current: { id: 'a' }, playing: false, progress: 0, playId: 6 });
    expect(s.history).toEqual([]);
  });

  it('a track end still plays the next item when a free user is out of skips', () => {
    const s = playerReducer(playing('a', ['b'], [], { skipCount: 2 }), { type: 'ended' });
    expect(s).toMatchObject({ current: { id: 'b' }, skipCount: 2, skipBlockedAt: null });
  });
});

describe('next', () => {
  it('plays the first queued item, sends the current one to history and counts a skip', () => {
    const s = playerReducer(playing('a', ['b', 'c'], ['h']), { type: 'nextRequested', at: T0 });
    expect(s).toMatchObject({ current: { id: 'b' }, playing: true, progress: 0, skipCount: 1 });
    expect(s.playId).toBe(6);
    expect(ids(s.queue)).toEqual(['c']);
    expect(ids(s.history)).toEqual(['a', 'h']);
  });

  it('with repeat all and an empty queue, restarts the current item (spec §2 keeps Next enabled)', () => {
    const s = playerReducer(playing('a', [], [], { repeat: 'all' }), {
      type: 'nextRequested',
      at: T0,
    });
    expect(s).toMatchObject({
      current: { id: 'a' },
      playing: true,
      progress: 0,
      playId: 6,
      skipCount: 1,
    });
    expect(s.history).toEqual([]);
  });

  it('does nothing when Next is disabled (empty queue, repeat not all)', () => {
    for (const repeat of ['off', 'one'] as const) {
      const s = playing('a', [], [], { repeat });
      expect(canGoNext(s)).toBe(false);
      expect(playerReducer(s, { type: 'nextRequested', at: T0 })).toBe(s);
    }
  });

  it('with repeat one, Next still moves on to the queue', () => {
    const s = playerReducer(playing('a', ['b'], [], { repeat: 'one' }), {
      type: 'nextRequested',
      at: T0,
    });
    expect(s.current?.id).toBe('b');
  });

  it('with nothing current, starts the queue without counting a skip', () => {
    const s = playerReducer(
      { ...initialPlayerState, queue: [item('b')] },
      { type: 'nextRequested', at: T0 },
    );
    expect(s).toMatchObject({ current: { id: 'b' }, playing: true, skipCount: 0, history: [] });
  });

  it('canGoNext: queue non-empty or repeat all', () => {
    expect(canGoNext(playing('a', ['b']))).toBe(true);
    expect(canGoNext(playing('a', [], [], { repeat: 'all' }))).toBe(true);
    expect(canGoNext(playing('a'))).toBe(false);
  });
});

describe('previous', () => {
  it('over 3 s restarts the current item and is not a skip', () => {
    const s = playerReducer(playing('a', ['b'], ['h'], { progress: 3.5, playing: false }), {
      type: 'previousRequested',
      at: T0,
    });
    expect(s).toMatchObject({
      current: { id: 'a' },
      progress: 0,
      playId: 6,
      playing: true,
      skipCount: 0,
    });
    expect(ids(s.history)).toEqual(['h']);
    expect(ids(s.queue)).toEqual(['b']);
  });

  it('over 3 s restarts even for a free user out of skips', () => {
    const s = playerReducer(playing('a', [], ['h'], { progress: 4, skipCount: 2 }), {
      type: 'previousRequested',
      at: T0,
    });
    expect(s).toMatchObject({ progress: 0, playId: 6, skipBlockedAt: null });
  });

  it('at 3 s or less plays the latest history item, puts the current one first in the queue, and counts a skip', () => {
    const s = playerReducer(playing('a', ['b'], ['h1', 'h2'], { progress: 3 }), {
      type: 'previousRequested',
      at: T0,
    });
    expect(s).toMatchObject({
      current: { id: 'h1' },
      playing: true,
      progress: 0,
      duration: 0,
      skipCount: 1,
    });
    expect(s.playId).toBe(6);
    expect(ids(s.history)).toEqual(['h2']);
    expect(ids(s.queue)).toEqual(['a', 'b']);
  });

  it('at 3 s or less with no history restarts (not a skip)', () => {
    const s = playerReducer(playing('a', [], [], { progress: 2 }), {
      type: 'previousRequested',
      at: T0,
    });
    expect(s).toMatchObject({ current: { id: 'a' }, progress: 0, playId: 6, skipCount: 0 });
  });

  it('with nothing loaded does nothing', () => {
    expect(playerReducer(initialPlayerState, { type: 'previousRequested', at: T0 })).toBe(
      initialPlayerState,
    );
  });

  it('canGoPrevious: history non-empty or progress over 3 s', () => {
    expect(canGoPrevious(playing('a', [], ['h'], { progress: 0 }))).toBe(true);
    expect(canGoPrevious(playing('a', [], [], { progress: 3.1 }))).toBe(true);
    expect(canGoPrevious(playing('a', [], [], { progress: 3 }))).toBe(false);
  });
});

describe('skip limit', () => {
  it('a free user gets 2 skips; the third is refused and only stamps skipBlockedAt', () => {
    let s = playing('a', ['b', 'c', 'd']);
    s = run(s, { type: 'nextRequested', at: T0 }, { type: 'nextRequested', at: T0 + 1000 });
    expect(s).toMatchObject({ current: { id: 'c' }, skipCount: 2, skipBlockedAt: null });
    expect(skipAllowed(s)).toBe(false);
    const blocked = playerReducer(s, { type: 'nextRequested', at: T0 + 2000 });
    expect(blocked).toEqual({ ...s, skipBlockedAt: T0 + 2000 });
  });

  it('a refused Previous (3 s or less, with history) also only stamps skipBlockedAt', () => {
    const s = playing('a', [], ['h'], { progress: 1, skipCount: 2 });
    expect(playerReducer(s, { type: 'previousRequested', at: T0 })).toEqual({
      ...s,
      skipBlockedAt: T0,
    });
  });

  it('premium skips without limit', () => {
    let s = playing('a', ['b', 'c', 'd', 'e'], [], { premium: true });
    for (let i = 0; i < 4; i++) s = playerReducer(s, { type: 'nextRequested', at: T0 + i });
    expect(s).toMatchObject({ current: { id: 'e' }, skipCount: 4, skipBlockedAt: null });
  });

  it('premiumKnown sets the flag from the subscription check', () => {
    const s = playerReducer(initialPlayerState, { type: 'premiumKnown', premium: true });
    expect(s.premium).toBe(true);
    expect(skipAllowed({ ...s, skipCount: 99 })).toBe(true);
    expect(playerReducer(s, { type: 'premiumKnown', premium: false }).premium).toBe(false);
  });

  it('the clock resets the counter once an hour has passed since the last reset, not before', () => {
    const s = playing('a', ['b'], [], { skipCount: 2, skipWindowStartedAt: T0 });
    expect(playerReducer(s, { type: 'skipClockTicked', at: T0 + SKIP_WINDOW_MS - 1 })).toBe(s);
    const reset = playerReducer(s, { type: 'skipClockTicked', at: T0 + SKIP_WINDOW_MS });
    expect(reset).toMatchObject({ skipCount: 0, skipWindowStartedAt: T0 + SKIP_WINDOW_MS });
    expect(
      playerReducer(reset, { type: 'nextRequested', at: T0 + SKIP_WINDOW_MS + 1 }).current?.id,
    ).toBe('b');
  });

  it('the first tick of a fresh player starts the window', () => {
    expect(
      playerReducer(initialPlayerState, { type: 'skipClockTicked', at: T0 }).skipWindowStartedAt,
    ).toBe(T0);
  });
});

describe('shuffle', () => {
  it('on saves the order and shuffles with the injected source (Fisher–Yates); off restores it', () => {
    const s = playing('x', ['a', 'b', 'c', 'd']);
    const on = playerReducer(s, { type: 'shuffleToggled', random: zero });
    // Draws of 0 swap each position i (from the end) with 0: d,b,c,a → c,b,d,a → b,c,d,a.
    expect(ids(on.queue)).toEqual(['b', 'c', 'd', 'a']);
    expect(on.shuffle).toBe(true);
    expect(ids(on.unshuffledQueue)).toEqual(['a', 'b', 'c', 'd']);
    const off = playerReducer(on, { type: 'shuffleToggled', random: zero });
    expect(off).toMatchObject({ shuffle: false, unshuffledQueue: null });
    expect(ids(off.queue)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a source drawing just under 1 leaves the order as it was', () => {
    const on = playerReducer(playing('x', ['a', 'b', 'c']), {
      type: 'shuffleToggled',
      random: () => 0.999999,
    });
    expect(ids(on.queue)).toEqual(['a', 'b', 'c']);
  });

  it('out-of-range draws are clamped, never lose or duplicate items', () => {
    for (const r of [1, 7, -2, NaN]) {
      const on = playerReducer(playing('x', ['a', 'b', 'c']), {
        type: 'shuffleToggled',
        random: () => r,
      });
      expect(ids(on.queue)?.sort()).toEqual(['a', 'b', 'c']);
    }
  });

  it('while shuffled: added items go to the end of both orders, removed and played ones leave both', () => {
    let s = playerReducer(playing('x', ['a', 'b', 'c']), { type: 'shuffleToggled', random: zero });
    expect(ids(s.queue)).toEqual(['b', 'c', 'a']);
    s = playerReducer(s, { type: 'queued', items: [item('d')] });
    expect(ids(s.queue)).toEqual(['b', 'c', 'a', 'd']);
    expect(ids(s.unshuffledQueue)).toEqual(['a', 'b', 'c', 'd']);
    s = playerReducer(s, { type: 'queueItemRemoved', index: 1 }); // c
    expect(ids(s.unshuffledQueue)).toEqual(['a', 'b', 'd']);
    s = playerReducer(s, { type: 'nextRequested', at: T0 }); // b plays
    expect(ids(s.queue)).toEqual(['a', 'd']);
    expect(ids(s.unshuffledQueue)).toEqual(['a', 'd']);
    s = playerReducer(s, { type: 'queueItemMoved', from: 1, to: 0 });
    expect(ids(s.queue)).toEqual(['d', 'a']);
    expect(ids(s.unshuffledQueue)).toEqual(['a', 'd']);
    s = playerReducer({ ...s, progress: 0 }, { type: 'previousRequested', at: T0 }); // x back, b queued first
    expect(ids(s.queue)).toEqual(['b', 'd', 'a']);
    expect(ids(s.unshuffledQueue)).toEqual(['b', 'a', 'd']);
    s = playerReducer(s, { type: 'shuffleToggled', random: zero });
    expect(ids(s.queue)).toEqual(['b', 'a', 'd']);
  });

  it('clearing while shuffled empties both orders', () => {
    let s = playerReducer(playing('x', ['a', 'b']), { type: 'shuffleToggled', random: zero });
    s = playerReducer(s, { type: 'queueCleared' });
    expect(s).toMatchObject({ queue: [], unshuffledQueue: [], shuffle: true });
    s = playerReducer(s, { type: 'shuffleToggled', random: zero });
    expect(s).toMatchObject({ queue: [], unshuffledQueue: null, shuffle: false });
  });
});

describe('queue', () => {
  it('queued adds to the end', () => {
    const s = playerReducer(playing('x', ['a']), { type: 'queued', items: [item('b'), item('c')] });
    expect(ids(s.queue)).toEqual(['a', 'b', 'c']);
    expect(s.unshuffledQueue).toBeNull();
  });

  it('queueing nothing changes nothing', () => {
    const s = playing('x', ['a']);
    expect(playerReducer(s, { type: 'queued', items: [] })).toBe(s);
  });

  it('removes by index; an index outside the queue changes nothing', () => {
    const s = playing('x', ['a', 'b', 'c']);
    expect(ids(playerReducer(s, { type: 'queueItemRemoved', index: 1 }).queue)).toEqual(['a', 'c']);
    for (const index of [-1, 3, 1.5]) {
      expect(playerReducer(s, { type: 'queueItemRemoved', index })).toBe(s);
    }
  });

  it('moves an item from one index to another; out-of-range moves change nothing', () => {
    const s = playing('x', ['a', 'b', 'c', 'd']);
    expect(ids(playerReducer(s, { type: 'queueItemMoved', from: 0, to: 2 }).queue)).toEqual([
      'b',
      'c',
      'a',
      'd',
    ]);
    expect(ids(playerReducer(s, { type: 'queueItemMoved', from: 3, to: 0 }).queue)).toEqual([
      'd',
      'a',
      'b',
      'c',
    ]);
    expect(playerReducer(s, { type: 'queueItemMoved', from: 0, to: 4 })).toBe(s);
    expect(playerReducer(s, { type: 'queueItemMoved', from: -1, to: 0 })).toBe(s);
  });

  it('clear empties the queue and keeps what is playing', () => {
    const s = playerReducer(playing('x', ['a', 'b']), { type: 'queueCleared' });
    expect(s).toMatchObject({ queue: [], current: { id: 'x' }, playing: true });
  });

  it('a click in the queue plays that item now: out of the queue, current to history, not a skip', () => {
    const s = playerReducer(playing('x', ['a', 'b', 'c'], [], { skipCount: 2 }), {
      type: 'queueItemPlayed',
      index: 1,
    });
    expect(s).toMatchObject({
      current: { id: 'b' },
      playing: true,
      progress: 0,
      playId: 6,
      skipCount: 2,
    });
    expect(ids(s.queue)).toEqual(['a', 'c']);
    expect(ids(s.history)).toEqual(['x']);
    expect(playerReducer(s, { type: 'queueItemPlayed', index: 9 })).toBe(s);
  });

  it('playing a queued copy of the current item restarts it without listing it in history', () => {
    const s = playerReducer(playing('x', ['x', 'a']), { type: 'queueItemPlayed', index: 0 });
    expect(s).toMatchObject({ current: { id: 'x' }, progress: 0, playId: 6, history: [] });
    expect(ids(s.queue)).toEqual(['a']);
  });
});

describe('persist and restore', () => {
  it('persistable keeps what a reload needs, including the skip counter, and no premium flag', () => {
    const s = playing('a', ['b'], ['h'], {
      premium: true,
      skipCount: 2,
      skipWindowStartedAt: T0,
      skipBlockedAt: T0 + 5,
      repeat: 'one',
      volume: 30,
      muted: true,
    });
    const saved = persistable(s);
    expect(saved).toEqual({
      current: item('a'),
      progress: 10,
      duration: 180,
      volume: 30,
      muted: true,
      queue: [item('b')],
      history: [item('h')],
      shuffle: false,
      unshuffledQueue: null,
      repeat: 'one',
      skipCount: 2,
      skipWindowStartedAt: T0,
    });
    // It survives JSON (localStorage) unchanged.
    expect(JSON.parse(JSON.stringify(saved))).toEqual(saved);
  });

  it('restored brings a saved state back, paused, without touching premium or playId', () => {
    const base = { ...initialPlayerState, premium: true, playId: 3 };
    const saved = persistable(
      playing('a', ['b', 'c'], ['h'], { repeat: 'all', skipCount: 1, skipWindowStartedAt: T0 }),
    );
    const s = playerReducer(base, { type: 'restored', state: JSON.parse(JSON.stringify(saved)) });
    expect(s).toMatchObject({
      current: { id: 'a' },
      playing: false,
      progress: 10,
      duration: 180,
      repeat: 'all',
      skipCount: 1,
      skipWindowStartedAt: T0,
      premium: true,
      playId: 3,
      skipBlockedAt: null,
    });
    expect(ids(s.queue)).toEqual(['b', 'c']);
    expect(ids(s.history)).toEqual(['h']);
  });

  it('restored comes back paused even if the saved state says playing', () => {
    const s = playerReducer(initialPlayerState, {
      type: 'restored',
      state: { current: item('a'), playing: true },
    });
    expect(s.playing).toBe(false);
  });

  it('restored keeps a saved shuffle and its original order', () => {
    const shuffledState = playerReducer(playing('x', ['a', 'b', 'c']), {
      type: 'shuffleToggled',
      random: zero,
    });
    const s = playerReducer(initialPlayerState, {
      type: 'restored',
      state: persistable(shuffledState),
    });
    expect(ids(s.queue)).toEqual(['b', 'c', 'a']);
    const off = playerReducer(s, { type: 'shuffleToggled', random: zero });
    expect(ids(off.queue)).toEqual(['a', 'b', 'c']);
  });

  it('restored repairs bad values from storage instead of trusting them', () => {
    const junk = {
      current: { id: 1 },
      queue: [item('a'), 'nope', null],
      history: Array.from({ length: 80 }, (_, i) => item(`h${i}`)),
      volume: 250,
      progress: 999,
      duration: 60,
      repeat: 'sometimes',
      shuffle: true,
      unshuffledQueue: [item('zzz')],
      skipCount: -4,
      muted: 'yes',
    } as unknown as Partial<PlayerState>;
    const s = playerReducer(initialPlayerState, { type: 'restored', state: junk });
    expect(s).toMatchObject({
      current: null,
      progress: 0,
      volume: 100,
      repeat: 'off',
      skipCount: 0,
      muted: false,
      shuffle: true,
      playing: false,
    });
    expect(ids(s.queue)).toEqual(['a']);
    expect(s.history).toHaveLength(HISTORY_LIMIT);
    // The saved order did not hold the queue's items: the queue's order is the one to return to.
    expect(ids(s.unshuffledQueue)).toEqual(['a']);
  });

  it('restored clamps the saved position to the saved duration', () => {
    const s = playerReducer(initialPlayerState, {
      type: 'restored',
      state: { current: item('a'), progress: 999, duration: 60 },
    });
    expect(s.progress).toBe(60);
  });
});
