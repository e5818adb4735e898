// The controls every player component calls: most are machine events; a seek also moves the
// engine, stops the listened clock across the gap, shows the new position on the lock screen
// and saves an episode's position after a run of seeks. What they act on comes in, so they
// are tested without a browser.
import type { PlayerEvent, PlayerState } from '@/core/player/player-machine.ts';
import type { PlaybackRate } from './playback-rate.ts';
import type { PlayerControls, PlayerItem } from './use-player.ts';

export interface ControlsDeps {
  dispatch(event: PlayerEvent): void;
  /** The machine's state now. */
  state(): PlayerState;
  /** The engine, while there is one. */
  engine(): { seek(seconds: number): void } | null;
  /** Starts a new song's media inside the click, before the state renders (optional). */
  prime?(item: PlayerItem, playId: number): void;
  recorder: { stopped(report: boolean): void };
  episodes: { seeked(position: number): void };
  showPosition(progress: number, duration: number, rate: number): void;
  /** The speed episodes play at. */
  playbackRate(): number;
  setPlaybackRate(rate: PlaybackRate): void;
  setNormalization(on: boolean): void;
  now(): number;
  random(): number;
}

export function playerControls(deps: ControlsDeps): PlayerControls {
  const { dispatch } = deps;
  const seek = (seconds: number) => {
    if (!Number.isFinite(seconds)) return;
    deps.recorder.stopped(false);
    deps.engine()?.seek(seconds);
    dispatch({ type: 'seeked', progress: seconds });
    const { current, duration } = deps.state();
    const item = current as PlayerItem | null;
    deps.showPosition(seconds, duration, item?.kind === 'episode' ? deps.playbackRate() : 1);
    deps.episodes.seeked(seconds);
  };
  return {
    load: (item) => {
      // A new song (not a toggle of the current one, not an episode, whose resume point the
      // render decides) starts its request now; the machine then makes it start playId + 1.
      const s = deps.state();
      if (item.kind === 'song' && s.current?.id !== item.id) deps.prime?.(item, s.playId + 1);
      dispatch({ type: 'itemLoaded', item });
    },
    toggle: () => dispatch({ type: 'playToggled' }),
    seek,
    setVolume: (v) => dispatch({ type: 'volumeChanged', volume: v }),
    toggleMute: () => dispatch({ type: 'muteToggled' }),
    next: () => dispatch({ type: 'nextRequested', at: deps.now() }),
    previous: () => dispatch({ type: 'previousRequested', at: deps.now() }),
    cycleRepeat: () => dispatch({ type: 'repeatCycled' }),
    toggleShuffle: () => dispatch({ type: 'shuffleToggled', random: deps.random }),
    addToQueue: (items) => dispatch({ type: 'queued', items }),
    removeFromQueue: (index) => dispatch({ type: 'queueItemRemoved', index }),
    moveInQueue: (from, to) => dispatch({ type: 'queueItemMoved', from, to }),
    clearQueue: () => dispatch({ type: 'queueCleared' }),
    playFromQueue: (index) => dispatch({ type: 'queueItemPlayed', index }),
    setNormalization: (on) => deps.setNormalization(on),
    skipBy: (seconds) => {
      const { progress: at, duration: length, current } = deps.state();
      if (!current || !Number.isFinite(seconds)) return;
      const end = length > 0 ? length : Number.POSITIVE_INFINITY;
      seek(Math.min(Math.max(at + seconds, 0), end));
    },
    setPlaybackRate: (rate) => deps.setPlaybackRate(rate),
  };
}
