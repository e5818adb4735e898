// The player's contexts, read by hooks: what is loaded (cards re-render when it changes),
// where playback is (only the bar re-renders on progress ticks), the queue and modes (the
// bar and the queue panel), and the controls (stable; components that only act never
// re-render), and the playback events a feature listens to.
import { createContext, useContext } from 'react';
import type { PlayableItem, RepeatMode } from '@/core/player/player-machine.ts';
import { useNormalizationSetting } from './normalization-setting.ts';
import type { PlaybackEvents } from './playback-events.ts';
import { usePlaybackRateSetting, type PlaybackRate } from './playback-rate.ts';
import type { PlayerMedia } from './rendition-choice.ts';

/** A playable item with what the engine needs to pick its file and gain. */
export interface PlayerItem extends PlayableItem {
  /** Null for items without pipeline media: `audioUrl` is played as it is. */
  media: PlayerMedia | null;
  /** Known before the file loads (the song's duration), for lists and the queue. */
  durationSeconds?: number;
  /** Signed URL of the song's WaveformDocument, when the pipeline made one. */
  waveformUrl?: string | null;
  kind: 'song' | 'episode';
  /** Songs: the uploading artist, whose profile the second line opens. */
  artistId?: string;
  /** Episodes: their show, whose cached episode list follows the listener's progress. */
  podcastId?: string;
  /** Episodes: where the listener left off (seconds; 0 when new or played to the end). */
  resumeAt?: number;
}

export interface PlayerNowPlaying {
  current: PlayerItem | null;
  playing: boolean;
}

export interface PlayerProgress {
  /** Seconds. */
  progress: number;
  /** Seconds; 0 while unknown. */
  duration: number;
  /** 0-100. */
  volume: number;
  muted: boolean;
}

export interface PlayerQueue {
  queue: PlayerItem[];
  /** Most recent first. */
  history: PlayerItem[];
  shuffle: boolean;
  repeat: RepeatMode;
  canNext: boolean;
  canPrevious: boolean;
  premium: boolean;
}

export interface PlayerControls {
  /** Plays the item now, or toggles play/pause when it is already current (spec §4). */
  load(item: PlayerItem): void;
  toggle(): void;
  /** Seconds from the start. */
  seek(seconds: number): void;
  /** 0-100. */
  setVolume(volume: number): void;
  toggleMute(): void;
  /** Skips (free listeners: 2 per hour; a refused skip shows the toast). */
  next(): void;
  /** Over 3 s restarts the item; else the previous one (a skip). */
  previous(): void;
  cycleRepeat(): void;
  toggleShuffle(): void;
  addToQueue(items: PlayerItem[]): void;
  removeFromQueue(index: number): void;
  moveInQueue(from: number, to: number): void;
  clearQueue(): void;
  /** Plays that queue entry now (a click in the queue panel). */
  playFromQueue(index: number): void;
  /** Loudness normalisation on or off, kept per device (on by default). */
  setNormalization(on: boolean): void;
  /** Moves the position by `seconds` (negative: back), within the item. */
  skipBy(seconds: number): void;
  /** The speed episodes play at, kept per device (songs always play at 1×). */
  setPlaybackRate(rate: PlaybackRate): void;
}

export const NowPlayingContext = createContext<PlayerNowPlaying | null>(null);
export const ProgressContext = createContext<PlayerProgress | null>(null);
export const QueueContext = createContext<PlayerQueue | null>(null);
export const ControlsContext = createContext<PlayerControls | null>(null);
export const PlaybackEventsContext = createContext<PlaybackEvents | null>(null);

function required<T>(value: T | null, hook: string): T {
  if (value === null) throw new Error(`${hook} must be used inside <PlayerProvider>`);
  return value;
}

export const useNowPlaying = () => required(useContext(NowPlayingContext), 'useNowPlaying');
export const usePlayerProgress = () => required(useContext(ProgressContext), 'usePlayerProgress');
export const usePlayerQueue = () => required(useContext(QueueContext), 'usePlayerQueue');
export const usePlayerControls = () => required(useContext(ControlsContext), 'usePlayerControls');
/** What the player tells as it plays (playback-events.ts), for a feature to follow. */
export const usePlaybackEvents = () =>
  required(useContext(PlaybackEventsContext), 'usePlaybackEvents');
/** Whether loudness normalisation is on on this device. */
export const useNormalization = (): boolean => useNormalizationSetting();
/** The speed chosen for episodes on this device. */
export const usePlaybackRate = (): PlaybackRate => usePlaybackRateSetting();
