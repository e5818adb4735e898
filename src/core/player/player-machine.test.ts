import { describe, expect, it } from 'vitest';
import {
  initialPlayerState,
  playerReducer,
  type PlayableItem,
  type PlayerState,
} from './player-machine.ts';

const item = (id: string): PlayableItem => ({
  id,
  title: `Song ${id}`,
  audioUrl: `/media/music/${id}.wav`,
  podcastTitle: 'Artist',
  coverArt: null,
});

describe('playerReducer', () => {
  it('starts with nothing loaded at volume 70', () => {
    expect(initialPlayerState).toMatchObject({ current: null, playing: false, volume: 70 });
  });

  it('loading a new item plays it from the start', () => {
    const playing: PlayerState = {
      ...initialPlayerState,
      current: item('a'),
      playing: false,
      progress: 12,
      duration: 30,
    };
    const next = playerReducer(playing, { type: 'itemLoaded', item: item('b') });
    expect(next).toMatchObject({ current: { id: 'b' }, playing: true, progress: 0, duration: 0 });
  });

  it('loading the current item toggles play/pause', () => {
    let s = playerReducer(initialPlayerState, { type: 'itemLoaded', item: item('a') });
    s = playerReducer({ ...s, progress: 5 }, { type: 'itemLoaded', item: item('a') });
    expect(s).toMatchObject({ playing: false, progress: 5 });
    s = playerReducer(s, { type: 'itemLoaded', item: item('a') });
    expect(s.playing).toBe(true);
  });

  it('toggling with nothing loaded does nothing', () => {
    expect(playerReducer(initialPlayerState, { type: 'playToggled' })).toBe(initialPlayerState);
  });

  it('seeking stays within the known duration', () => {
    const s = { ...initialPlayerState, current: item('a'), duration: 30 };
    expect(playerReducer(s, { type: 'seeked', progress: 45 }).progress).toBe(30);
    expect(playerReducer(s, { type: 'seeked', progress: -3 }).progress).toBe(0);
  });

  it('volume is a whole number from 0 to 100', () => {
    expect(playerReducer(initialPlayerState, { type: 'volumeChanged', volume: 140 }).volume).toBe(
      100,
    );
    expect(playerReducer(initialPlayerState, { type: 'volumeChanged', volume: 33.4 }).volume).toBe(
      33,
    );
  });

  it('an unknown duration reads as 0', () => {
    const s = playerReducer(initialPlayerState, { type: 'durationKnown', duration: Infinity });
    expect(s.duration).toBe(0);
  });

  it('the end of a track stops and rewinds it', () => {
    const s = { ...initialPlayerState, current: item('a'), playing: true, progress: 29 };
    expect(playerReducer(s, { type: 'ended' })).toMatchObject({ playing: false, progress: 0 });
  });
});
