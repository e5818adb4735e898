import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HISTORY_LIMIT,
  initialPlayerState,
  persistable,
  playerReducer,
  PREVIOUS_RESTART_SECONDS,
  SKIP_WINDOW_MS,
  SKIPS_PER_HOUR,
  type PlayableItem,
  type PlayerEvent,
  type PlayerState,
} from './player-machine.ts';

// A small pool so the same song turns up twice in a queue, as it does when people queue.
const POOL = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id): PlayableItem => ({
  id,
  title: `Song ${id}`,
  audioUrl: `/media/music/${id}.wav`,
  podcastTitle: 'Artist',
  coverArt: id === 'a' ? `/covers/${id}.png` : null,
}));

/** A seeded source in [0, 1) (mulberry32), so a failing case replays exactly. */
function seeded(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const anItem = fc.constantFrom(...POOL);
const anyNumber = fc.oneof(
  fc.double(),
  fc.double({ min: 0, max: 400, noNaN: true }),
  fc.integer({ min: -2, max: 12 }),
);
const anIndex = fc.integer({ min: -1, max: 10 });

/** Events that need the clock get it later, from a running time: a step builds the event. */
type Step = { dt: number; build: (now: number) => PlayerEvent };
const at = <T extends PlayerEvent>(build: (now: number) => T) => build;
const fixed = (event: PlayerEvent) => () => event;

function steps(options: { premium: boolean; restore: boolean }): fc.Arbitrary<Step[]> {
  const builders: fc.Arbitrary<(now: number) => PlayerEvent>[] = [
    anItem.map((item) => fixed({ type: 'itemLoaded', item })),
    fc.constant(fixed({ type: 'playToggled' })),
    fc.constant(fixed({ type: 'playbackStarted' })),
    fc.constant(fixed({ type: 'playbackPaused' })),
    anyNumber.map((progress) => fixed({ type: 'progressed', progress })),
    anyNumber.map((duration) => fixed({ type: 'durationKnown', duration })),
    anyNumber.map((progress) => fixed({ type: 'seeked', progress })),
    fc.double().map((volume) => fixed({ type: 'volumeChanged', volume })),
    fc.constant(fixed({ type: 'muteToggled' })),
    fc.constant(fixed({ type: 'ended' })),
    fc.constant(fixed({ type: 'repeatCycled' })),
    fc.integer().map((seed) => () => ({ type: 'shuffleToggled', random: seeded(seed) })),
    fc.array(anItem, { maxLength: 4 }).map((items) => fixed({ type: 'queued', items })),
    anIndex.map((index) => fixed({ type: 'queueItemRemoved', index })),
    fc.tuple(anIndex, anIndex).map(([from, to]) => fixed({ type: 'queueItemMoved', from, to })),
    fc.constant(fixed({ type: 'queueCleared' })),
    anIndex.map((index) => fixed({ type: 'queueItemPlayed', index })),
    fc.constant(at((now) => ({ type: 'skipClockTicked', at: now }))),
  ];
  if (options.premium) {
    builders.push(fc.boolean().map((premium) => fixed({ type: 'premiumKnown', premium })));
  }
  if (options.restore) {
    builders.push(
      fc
        .record(
          {
            current: fc.option(anItem),
            queue: fc.array(anItem, { maxLength: 5 }),
            history: fc.array(anItem, { maxLength: 60 }),
            progress: anyNumber,
            duration: anyNumber,
            volume: fc.double(),
            shuffle: fc.boolean(),
            unshuffledQueue: fc.option(fc.array(anItem, { maxLength: 5 })),
            repeat: fc.constantFrom('off', 'all', 'one', 'never'),
            playing: fc.boolean(),
            skipCount: anyNumber,
          },
          { requiredKeys: [] },
        )
        .map((state) => fixed({ type: 'restored', state: state as Partial<PlayerState> })),
    );
  }
  // Skips, loads and queueing are drawn more often, so runs reach the skip limit and a full
  // history; time mostly moves by seconds (the engine ticks every 60 s), sometimes by a
  // quarter of an hour, so a run sees both many skips within an hour and several resets.
  const build = fc.oneof(
    { arbitrary: fc.oneof(...builders), weight: 6 },
    { arbitrary: fc.constant(at((now) => ({ type: 'nextRequested', at: now }))), weight: 3 },
    { arbitrary: fc.constant(at((now) => ({ type: 'previousRequested', at: now }))), weight: 2 },
    {
      arbitrary: fc
        .array(anItem, { minLength: 1, maxLength: 4 })
        .map((items) => fixed({ type: 'queued', items })),
      weight: 2,
    },
    { arbitrary: anItem.map((item) => fixed({ type: 'itemLoaded', item })), weight: 1 },
  );
  const dt = fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 60_000 }), weight: 9 },
    { arbitrary: fc.integer({ min: 0, max: 15 * 60_000 }), weight: 1 },
  );
  return fc.array(fc.record({ dt, build }), { maxLength: 200, size: 'max' });
}

const T0 = 1_700_000_000_000;

/** Runs the steps, calling `check` with each transition; returns the last state. */
function play(
  start: PlayerState,
  list: Step[],
  check: (before: PlayerState, event: PlayerEvent, after: PlayerState) => void = () => {},
): PlayerState {
  let now = T0;
  let s = start;
  for (const { dt, build } of list) {
    now += dt;
    const event = build(now);
    const after = playerReducer(s, event);
    check(s, event, after);
    s = after;
  }
  return s;
}

const multiset = (items: PlayableItem[]) => items.map((i) => i.id).sort();

/** The broken invariant's name, or null; plain checks, as this runs after every event. */
function brokenInvariant(s: PlayerState): string | null {
  const broken: [boolean, string][] = [
    [s.history.length > HISTORY_LIMIT, 'history longer than 50'],
    [!Number.isInteger(s.volume) || s.volume < 0 || s.volume > 100, 'volume outside 0-100'],
    [s.current === null && s.playing, 'playing with nothing loaded'],
    [!Number.isFinite(s.progress) || s.progress < 0, 'progress not a time'],
    [!Number.isFinite(s.duration) || s.duration < 0, 'duration not a time'],
    [s.duration > 0 && s.progress > s.duration, 'progress past the duration'],
    [!['off', 'all', 'one'].includes(s.repeat), 'unknown repeat mode'],
    [!Number.isInteger(s.skipCount) || s.skipCount < 0, 'skip count not a count'],
    // The saved order exists exactly while shuffled, and holds the same items as the queue.
    [(s.unshuffledQueue !== null) !== s.shuffle, 'saved order without shuffle'],
    [
      s.unshuffledQueue !== null && multiset(s.unshuffledQueue).join() !== multiset(s.queue).join(),
      'saved order and queue hold different items',
    ],
  ];
  return broken.find(([isBroken]) => isBroken)?.[1] ?? null;
}

describe('player machine properties', () => {
  it('random sequences of events never throw and keep every invariant', () => {
    fc.assert(
      fc.property(steps({ premium: true, restore: true }), (list) => {
        play(initialPlayerState, list, (_before, event, after) => {
          const broken = brokenInvariant(after);
          if (broken) throw new Error(`${broken} after ${event.type}: ${JSON.stringify(after)}`);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('history holds the latest 50 items, most recent first', () => {
    fc.assert(
      fc.property(fc.array(anItem, { minLength: 1, maxLength: 150, size: 'max' }), (loads) => {
        let s = initialPlayerState;
        let pushed: PlayableItem[] = [];
        for (const item of loads) {
          // A new item pushes the current one; the current item again only toggles.
          if (s.current && s.current.id !== item.id) pushed = [s.current, ...pushed];
          s = playerReducer(s, { type: 'itemLoaded', item });
        }
        expect(s.history).toEqual(pushed.slice(0, HISTORY_LIMIT));
      }),
    );
  });

  it('shuffle on keeps the queue’s items, and off right after restores the exact order', () => {
    fc.assert(
      fc.property(steps({ premium: true, restore: true }), fc.integer(), (list, seed) => {
        const before = play(initialPlayerState, list);
        const on = playerReducer(before, { type: 'shuffleToggled', random: seeded(seed) });
        const off = playerReducer(on, { type: 'shuffleToggled', random: seeded(seed) });
        expect(multiset(on.queue)).toEqual(multiset(before.queue));
        expect(multiset(off.queue)).toEqual(multiset(before.queue));
        // From unshuffled, on then off is the identity on the order.
        if (!before.shuffle) expect(off.queue).toEqual(before.queue);
        else expect(on.queue).toEqual(before.unshuffledQueue);
      }),
    );
  });

  it('volume always ends whole and within 0–100, whatever is asked', () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { maxLength: 20 }), (volumes) => {
        const s = volumes.reduce<PlayerState>(
          (state, volume) => playerReducer(state, { type: 'volumeChanged', volume }),
          initialPlayerState,
        );
        expect(Number.isInteger(s.volume) && s.volume >= 0 && s.volume <= 100).toBe(true);
      }),
    );
  });

  it('a free user never gets more than 2 skips between resets, and is never refused one early', () => {
    fc.assert(
      fc.property(steps({ premium: false, restore: false }), (list) => {
        // An independent model of the window: resets on a tick an hour after the last reset.
        let windowStart = initialPlayerState.skipWindowStartedAt;
        let accepted = 0;
        play(initialPlayerState, list, (before, event, after) => {
          if (event.type === 'skipClockTicked' && event.at - windowStart >= SKIP_WINDOW_MS) {
            windowStart = event.at;
            accepted = 0;
          }
          const isSkip =
            before.current !== null &&
            ((event.type === 'nextRequested' &&
              (before.queue.length > 0 || before.repeat === 'all')) ||
              (event.type === 'previousRequested' &&
                before.progress <= PREVIOUS_RESTART_SECONDS &&
                before.history.length > 0));
          if (!isSkip) {
            expect(after.skipBlockedAt).toBe(before.skipBlockedAt);
            return;
          }
          if (after.playId !== before.playId) {
            accepted += 1;
            expect(accepted).toBeLessThanOrEqual(SKIPS_PER_HOUR);
          } else {
            // Refused: only the stamp changed, and only because the limit was reached.
            expect(accepted).toBe(SKIPS_PER_HOUR);
            expect(after).toEqual({ ...before, skipBlockedAt: (event as { at: number }).at });
          }
        });
      }),
      { numRuns: 100 },
    );
  });

  it('persistable then restored gives back the same player, paused', () => {
    fc.assert(
      fc.property(steps({ premium: true, restore: true }), (list) => {
        const s = play(initialPlayerState, list);
        const back = playerReducer(
          { ...initialPlayerState, premium: s.premium, playId: s.playId },
          {
            type: 'restored',
            state: JSON.parse(JSON.stringify(persistable(s))) as Partial<PlayerState>,
          },
        );
        expect(back).toEqual({ ...s, playing: false, skipBlockedAt: null });
      }),
    );
  });
});
