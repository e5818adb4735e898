import { describe, expect, it } from 'vitest';
import {
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from '@/core/validation/podcast-playback.rules.ts';
import {
  mediaSessionView,
  playerMediaControls,
  type MediaSessionControls,
  type MediaSessionItem,
  type MediaSessionPort,
} from './media-session.ts';
import type { PlayerItem } from './use-player.ts';

function fakeSession(refuse: MediaSessionAction[] = []) {
  const handlers = new Map<MediaSessionAction, MediaSessionActionHandler | null>();
  const positions: Array<MediaPositionState | undefined> = [];
  const port: MediaSessionPort = {
    metadata: null,
    playbackState: 'none',
    setActionHandler: (action, handler) => {
      if (refuse.includes(action)) throw new TypeError(`unknown action ${action}`);
      handlers.set(action, handler);
    },
    setPositionState: (state) => {
      if ((state?.position ?? 0) > 1e6) throw new TypeError('out of range');
      positions.push(state);
    },
  };
  const view = mediaSessionView(
    port,
    (item: MediaSessionItem) => item,
    () => 'https://canto.test/podcasts',
  );
  const run = (action: MediaSessionAction, details: Partial<MediaSessionActionDetails> = {}) =>
    handlers.get(action)?.({ action, ...details });
  return { port, view, handlers, positions, run };
}

function recordingControls() {
  const calls: string[] = [];
  const controls = {
    toggle: () => calls.push('toggle'),
    next: () => calls.push('next'),
    previous: () => calls.push('previous'),
    seek: (s: number) => calls.push(`seek ${s}`),
    skipBy: (s: number) => calls.push(`skipBy ${s}`),
  };
  return { controls, calls };
}

const EPISODE: PlayerItem = {
  id: 'ep-1',
  title: 'Pilot',
  audioUrl: '/a.mp3',
  podcastTitle: 'The Show',
  coverArt: '/covers/show.jpg',
  media: null,
  kind: 'episode',
};

describe('mediaSessionView', () => {
  it('binds the buttons, seeks where the lock screen says, and unbinds them all', () => {
    const s = fakeSession();
    const calls: string[] = [];
    const controls: MediaSessionControls = {
      play: () => calls.push('play'),
      pause: () => calls.push('pause'),
      next: () => calls.push('next'),
      previous: () => calls.push('previous'),
      seek: (at) => calls.push(`seek ${at}`),
    };
    const unbind = s.view.bind(controls);
    expect([...s.handlers.keys()].sort()).toEqual(
      ['nexttrack', 'pause', 'play', 'previoustrack', 'seekto'].sort(),
    );
    s.run('play');
    s.run('nexttrack');
    s.run('seekto', { seekTime: 42 });
    s.run('seekto', {}); // no time: nothing
    expect(calls).toEqual(['play', 'next', 'seek 42']);
    unbind();
    expect([...s.handlers.values()].every((h) => h === null)).toBe(true);
  });

  it('skips back and forward by the offset asked, else by the default step', () => {
    const s = fakeSession();
    const skipped: number[] = [];
    s.view.bind({
      play: () => undefined,
      pause: () => undefined,
      next: () => undefined,
      previous: () => undefined,
      seek: () => undefined,
      skipBy: { back: 15, forward: 30, run: (by) => skipped.push(by) },
    });
    s.run('seekbackward');
    s.run('seekforward');
    s.run('seekforward', { seekOffset: 10 });
    expect(skipped).toEqual([-15, 30, 10]);
  });

  it('an action the browser does not know is left out, the others still bound', () => {
    const s = fakeSession(['previoustrack']);
    const { controls, calls } = recordingControls();
    s.view.bind(playerMediaControls(controls, () => false, false));
    s.run('nexttrack');
    expect(calls).toEqual(['next']);
    expect(s.handlers.has('previoustrack')).toBe(false);
  });

  it("shows the item with its artwork's absolute URL, and nothing once it is gone", () => {
    const s = fakeSession();
    s.view.showItem(EPISODE);
    expect(s.port.metadata).toEqual({
      title: 'Pilot',
      artist: 'The Show',
      album: 'Canto',
      artwork: [{ src: 'https://canto.test/covers/show.jpg' }],
    });
    s.view.showItem({ ...EPISODE, coverArt: null });
    expect((s.port.metadata as MediaSessionItem).artwork).toEqual([]);
    s.view.showItem(null);
    expect(s.port.metadata).toBeNull();
  });

  it('shows playing, paused, or nothing loaded', () => {
    const s = fakeSession();
    s.view.showState(true);
    expect(s.port.playbackState).toBe('playing');
    s.view.showState(false);
    expect(s.port.playbackState).toBe('paused');
    s.view.showState(null);
    expect(s.port.playbackState).toBe('none');
  });

  it('the position stays within the duration; no duration clears it; a refusal is ignored', () => {
    const s = fakeSession();
    s.view.showPosition(70, 60, 1.5);
    s.view.showPosition(10, 0);
    expect(() => s.view.showPosition(2e6, 3e6)).not.toThrow();
    expect(s.positions).toEqual([{ duration: 60, position: 60, playbackRate: 1.5 }, undefined]);
  });

  it('without a session nothing is bound or shown', () => {
    const view = mediaSessionView(null, null, () => 'https://canto.test/');
    const unbind = view.bind(playerMediaControls(recordingControls().controls, () => true, true));
    expect(() => {
      unbind();
      view.showItem(EPISODE);
      view.showState(true);
      view.showPosition(1, 2);
    }).not.toThrow();
  });
});

describe('playerMediaControls', () => {
  it('play and pause only toggle when the player is in the other state', () => {
    const { controls, calls } = recordingControls();
    let playing = false;
    const media = playerMediaControls(controls, () => playing, false);
    media.pause();
    media.play();
    playing = true;
    media.play();
    media.pause();
    expect(calls).toEqual(['toggle', 'toggle']);
  });

  it("episodes get the skip buttons with the app's steps; songs do not", () => {
    const { controls, calls } = recordingControls();
    expect(playerMediaControls(controls, () => true, false).skipBy).toBeUndefined();
    const skip = playerMediaControls(controls, () => true, true).skipBy!;
    expect([skip.back, skip.forward]).toEqual([SKIP_BACK_SECONDS, SKIP_FORWARD_SECONDS]);
    skip.run(-SKIP_BACK_SECONDS);
    expect(calls).toEqual([`skipBy ${-SKIP_BACK_SECONDS}`]);
  });
});
