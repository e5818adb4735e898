import { describe, expect, it } from 'vitest';
import {
  initialPlayerState,
  playerReducer,
  type PlayerState,
} from '@/core/player/player-machine.ts';
import {
  decodePlayer,
  encodePlayer,
  PlayerKeeper,
  type PlayerStore,
} from './player-persistence.ts';
import type { PlayerItem } from './use-player.ts';

const item = (id: string): PlayerItem => ({
  id,
  title: `Song ${id}`,
  audioUrl: `/media/audio/${id}.wav?e=1&s=x`,
  podcastTitle: 'Artist',
  coverArt: null,
  media: {
    status: 'ready',
    original: `/media/audio/${id}.wav?e=1&s=x`,
    renditions: [
      {
        url: `/media/renditions/${id}-160.webm?e=1&s=x`,
        mime: 'audio/webm; codecs=opus',
        codec: 'opus',
        bitrate_kbps: 160,
        bytes: 1000,
        duration: 3,
      },
    ],
    gainDb: -2.5,
  },
  kind: 'song',
  durationSeconds: 3,
  waveformUrl: `/media/waveforms/${id}.json?e=1&s=x`,
});

const playing: PlayerState = {
  ...initialPlayerState,
  current: item('b'),
  playing: true,
  progress: 42.5,
  duration: 180,
  volume: 35,
  muted: true,
  queue: [item('c'), item('d')],
  history: [item('a')],
  shuffle: true,
  unshuffledQueue: [item('d'), item('c')],
  repeat: 'all',
  premium: true,
  skipCount: 1,
  skipWindowStartedAt: 1_700_000_000_000,
  skipBlockedAt: 1_700_000_100_000,
  playId: 7,
};

const reload = (raw: string | null) => {
  const saved = decodePlayer(raw);
  return saved ? playerReducer(initialPlayerState, { type: 'restored', state: saved }) : null;
};

describe('player persistence', () => {
  it('a reload brings back the queue, the item and its position, paused, with the media', () => {
    const back = reload(encodePlayer(playing))!;
    expect(back).toMatchObject({
      playing: false,
      progress: 42.5,
      duration: 180,
      volume: 35,
      muted: true,
      shuffle: true,
      repeat: 'all',
      skipCount: 1,
      skipWindowStartedAt: 1_700_000_000_000,
    });
    expect(back.current).toEqual(item('b'));
    expect(back.queue).toEqual([item('c'), item('d')]);
    expect(back.history).toEqual([item('a')]);
    expect(back.unshuffledQueue).toEqual([item('d'), item('c')]);
  });

  it('never brings back premium, a refused skip (the toast) or the engine counter', () => {
    const back = reload(encodePlayer(playing))!;
    expect(back.premium).toBe(false);
    expect(back.skipBlockedAt).toBeNull();
    expect(back.playId).toBe(initialPlayerState.playId);
  });

  it('nothing usable stored means nothing restored', () => {
    expect(decodePlayer(null)).toBeNull();
    expect(decodePlayer('not json')).toBeNull();
    expect(decodePlayer('{"version":99,"player":{}}')).toBeNull();
    expect(decodePlayer('[]')).toBeNull();
  });

  it('edited storage: bad items are dropped, bad media becomes none, bad fields keep defaults', () => {
    const raw = JSON.stringify({
      version: 1,
      player: {
        current: { ...item('x'), media: { status: 'weird' }, kind: 'nope' },
        queue: [item('y'), { id: 5 }, 'z', null],
        volume: 'loud',
        repeat: 'sometimes',
        progress: 9,
        duration: 20,
      },
    });
    const back = reload(raw)!;
    expect(back.current).toMatchObject({ id: 'x', media: null, kind: 'song' });
    expect(back.queue.map((i) => i.id)).toEqual(['y']);
    expect(back.volume).toBe(70);
    expect(back.repeat).toBe('off');
    expect(back.progress).toBe(9);
  });
  it('an episode comes back with its show and where it resumes; bad values are dropped', () => {
    const episode: PlayerItem = {
      ...item('e'),
      kind: 'episode',
      podcastTitle: 'The Show',
      podcastId: 'show-1',
      resumeAt: 95.5,
    };
    const back = reload(encodePlayer({ ...playing, current: episode, queue: [] }))!;
    expect(back.current).toEqual(episode);
    const edited = JSON.stringify({
      version: 1,
      player: { current: { ...episode, podcastId: 7, resumeAt: -3 } },
    });
    const worse = reload(edited)!.current as PlayerItem;
    expect(worse.kind).toBe('episode');
    expect(worse.podcastId).toBeUndefined();
    expect(worse.resumeAt).toBe(0);
  });
});

describe('PlayerKeeper', () => {
  function memoryStore() {
    const kept = new Map<string, string>();
    const store: PlayerStore = {
      load: (userId) => decodePlayer(kept.get(userId) ?? null),
      save: (userId, state) => kept.set(userId, encodePlayer(state)),
    };
    return { kept, store };
  }
  const playing = (id: string) =>
    playerReducer(initialPlayerState, { type: 'itemLoaded', item: item(id) });

  it('keeps nothing before the player was restored for that user', () => {
    const { kept, store } = memoryStore();
    kept.set('u1', encodePlayer(playing('a')));
    const keeper = new PlayerKeeper(store);
    keeper.save('u1', initialPlayerState); // the first render's empty player
    expect(decodePlayer(kept.get('u1')!)?.current?.id).toBe('a');
    expect(keeper.restore('u1')?.saved?.current?.id).toBe('a');
    keeper.save('u1', playing('b'));
    expect(decodePlayer(kept.get('u1')!)?.current?.id).toBe('b');
  });

  it('restores once per user; another user gets their own', () => {
    const { kept, store } = memoryStore();
    kept.set('u2', encodePlayer(playing('c')));
    const keeper = new PlayerKeeper(store);
    expect(keeper.restore('u1')).toEqual({ saved: null });
    expect(keeper.restore('u1')).toBeNull();
    expect(keeper.restore('u2')?.saved?.current?.id).toBe('c');
    keeper.save('u1', playing('a')); // no longer the user the player was restored for
    keeper.save(null, playing('a'));
    expect(kept.has('u1')).toBe(false);
  });
});
