// The player's three contexts, read by hooks: what is loaded (cards re-render when it
// changes), where playback is (only the bar re-renders on progress ticks), and the controls
// (stable; components that only act never re-render).
import { createContext, useContext } from 'react';
import type { PlayableItem } from '../../../core/player/player-machine.ts';
import type { PlayerMedia } from './rendition-choice.ts';

/** A playable item with what the engine needs to pick its file and gain (issue 8). */
export interface PlayerItem extends PlayableItem {
  /** Null for items without pipeline media: `audioUrl` is played as it is. */
  media: PlayerMedia | null;
}

export interface PlayerNowPlaying {
  current: PlayableItem | null;
  playing: boolean;
}

export interface PlayerProgress {
  progress: number;
  duration: number;
  volume: number;
}

export interface PlayerControls {
  /** Plays the item, or toggles play/pause when it is already current (spec §4). */
  load(item: PlayerItem): void;
  toggle(): void;
  /** Seconds from the start. */
  seek(seconds: number): void;
  /** 0-100. */
  setVolume(volume: number): void;
}

export const NowPlayingContext = createContext<PlayerNowPlaying | null>(null);
export const ProgressContext = createContext<PlayerProgress | null>(null);
export const ControlsContext = createContext<PlayerControls | null>(null);

function required<T>(value: T | null, hook: string): T {
  if (value === null) throw new Error(`${hook} must be used inside <PlayerProvider>`);
  return value;
}

export const useNowPlaying = () => required(useContext(NowPlayingContext), 'useNowPlaying');
export const usePlayerProgress = () => required(useContext(ProgressContext), 'usePlayerProgress');
export const usePlayerControls = () => required(useContext(ControlsContext), 'usePlayerControls');
