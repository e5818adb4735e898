import { describe, expect, it } from 'vitest';
import { playingItem } from './ad-impression.ts';

const SONG = '3f1c2a9e-8a7b-4c1d-9e2f-0a1b2c3d4e5f';

describe('what an ad impression says was playing', () => {
  it('names the playing song or episode', () => {
    expect(playingItem({ id: SONG, kind: 'song' }, true)).toEqual({ song_id: SONG });
    expect(playingItem({ id: SONG, kind: 'episode' }, true)).toEqual({ podcast_episode_id: SONG });
  });

  it('names nothing when paused, idle, or playing an external preview', () => {
    expect(playingItem({ id: SONG, kind: 'song' }, false)).toEqual({});
    expect(playingItem(null, true)).toEqual({});
    expect(playingItem({ id: 'itunes:12345', kind: 'song' }, true)).toEqual({});
  });
});
