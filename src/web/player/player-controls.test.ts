import { describe, expect, it } from 'vitest';
import {
  initialPlayerState,
  type PlayerEvent,
  type PlayerState,
} from '@/core/player/player-machine.ts';
import { playerControls } from './player-controls.ts';
import type { PlayerItem } from './use-player.ts';

const item = (kind: 'song' | 'episode'): PlayerItem => ({
  id: 'i1',
  title: 'T',
  audioUrl: '/a.wav',
  podcastTitle: 'A',
  coverArt: null,
  media: null,
  kind,
});

function setup(state: Partial<PlayerState> = {}) {
  const calls: string[] = [];
  const events: PlayerEvent[] = [];
  const now: PlayerState = { ...initialPlayerState, ...state };
  const controls = playerControls({
    dispatch: (e) => events.push(e),
    state: () => now,
    engine: () => ({ seek: (s) => calls.push(`engine seek ${s}`) }),
    // Records whether the machine had heard of the load yet when the engine was primed.
    prime: (it, playId) => calls.push(`prime ${it.id} as ${playId} after ${events.length} events`),
    recorder: { stopped: (report) => calls.push(`recorder stopped ${report}`) },
    episodes: { seeked: (p) => calls.push(`episodes seeked ${p}`) },
    showPosition: (p, d, r) => calls.push(`position ${p}/${d} at ${r}`),
    playbackRate: () => 1.5,
    setPlaybackRate: (r) => calls.push(`rate ${r}`),
    setNormalization: (on) => calls.push(`normalization ${on}`),
    now: () => 1234,
    random: () => 0.5,
  });
  return { controls, calls, events };
}

describe('playerControls', () => {
  it('loading a new song starts its media in the click, before the machine renders it', () => {
    const other = { ...item('song'), id: 'i2' };
    const { controls, calls, events } = setup({ current: item('song'), playId: 7 });
    controls.load(other);
    expect(calls).toEqual(['prime i2 as 8 after 0 events']);
    expect(events).toEqual([{ type: 'itemLoaded', item: other }]);
  });

  it('loading the current song (a toggle) or an episode primes nothing', () => {
    const { controls, calls, events } = setup({ current: item('song'), playId: 7 });
    controls.load(item('song'));
    controls.load({ ...item('episode'), id: 'e1' });
    expect(calls).toEqual([]);
    expect(events).toHaveLength(2);
  });

  it('a seek moves the engine without counting the gap, and is shown and saved', () => {
    const { controls, calls, events } = setup({ current: item('episode'), duration: 600 });
    controls.seek(42);
    expect(calls).toEqual([
      'recorder stopped false',
      'engine seek 42',
      'position 42/600 at 1.5',
      'episodes seeked 42',
    ]);
    expect(events).toEqual([{ type: 'seeked', progress: 42 }]);
  });

  it("a song's position shows at 1×; a seek to nowhere does nothing", () => {
    const { controls, calls, events } = setup({ current: item('song'), duration: 200 });
    controls.seek(Number.NaN);
    expect(calls).toEqual([]);
    controls.seek(10);
    expect(calls).toContain('position 10/200 at 1');
    expect(events).toEqual([{ type: 'seeked', progress: 10 }]);
  });

  it('skips stay within the item', () => {
    const { controls, events } = setup({ current: item('episode'), progress: 20, duration: 40 });
    controls.skipBy(-30);
    controls.skipBy(30);
    expect(events).toEqual([
      { type: 'seeked', progress: 0 },
      { type: 'seeked', progress: 40 },
    ]);
  });

  it('a skip while the duration is unknown only stops at the start; none without an item', () => {
    const { controls, events } = setup({ current: item('episode'), progress: 20, duration: 0 });
    controls.skipBy(30);
    expect(events).toEqual([{ type: 'seeked', progress: 50 }]);
    const empty = setup({ current: null, progress: 20 });
    empty.controls.skipBy(30);
    expect(empty.events).toEqual([]);
  });

  it('next and previous carry the time, shuffle the random source; settings go to the device', () => {
    const { controls, calls, events } = setup();
    controls.next();
    controls.previous();
    controls.toggleShuffle();
    controls.setPlaybackRate(2);
    controls.setNormalization(false);
    expect(events.slice(0, 2)).toEqual([
      { type: 'nextRequested', at: 1234 },
      { type: 'previousRequested', at: 1234 },
    ]);
    expect(events[2]).toMatchObject({ type: 'shuffleToggled' });
    expect(calls).toEqual(['rate 2', 'normalization false']);
  });
});
