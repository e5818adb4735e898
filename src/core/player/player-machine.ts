// The player as a pure machine (spec §3 Player state, §4 transitions): typed past-tense
// events in, new state out. The <audio> element and every side effect live in the provider.

/** Spec §3 Playable item; `podcastTitle` is the artist name for songs. */
export interface PlayableItem {
  id: string;
  title: string;
  audioUrl: string;
  podcastTitle: string;
  coverArt: string | null;
}

export interface PlayerState {
  current: PlayableItem | null;
  /** What the listener wants; the provider makes the element follow it. */
  playing: boolean;
  /** Seconds. */
  progress: number;
  /** Seconds; 0 while unknown. */
  duration: number;
  /** 0-100 (spec §9). */
  volume: number;
}

export const DEFAULT_VOLUME = 70;

export const initialPlayerState: PlayerState = {
  current: null,
  playing: false,
  progress: 0,
  duration: 0,
  volume: DEFAULT_VOLUME,
};

export type PlayerEvent =
  | { type: 'itemLoaded'; item: PlayableItem }
  | { type: 'playToggled' }
  | { type: 'playbackStarted' }
  | { type: 'playbackPaused' }
  | { type: 'progressed'; progress: number }
  | { type: 'durationKnown'; duration: number }
  | { type: 'seeked'; progress: number }
  | { type: 'volumeChanged'; volume: number }
  | { type: 'ended' };

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const finite = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

export function playerReducer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'itemLoaded':
      // Spec §4: loading the item that is already current toggles play/pause.
      if (state.current?.id === event.item.id) return { ...state, playing: !state.playing };
      return { ...state, current: event.item, playing: true, progress: 0, duration: 0 };
    case 'playToggled':
      return state.current ? { ...state, playing: !state.playing } : state;
    case 'playbackStarted':
      return state.playing ? state : { ...state, playing: true };
    case 'playbackPaused':
      return state.playing ? { ...state, playing: false } : state;
    case 'progressed':
      return { ...state, progress: finite(event.progress) };
    case 'durationKnown':
      return { ...state, duration: finite(event.duration) };
    case 'seeked': {
      const max = state.duration || Number.POSITIVE_INFINITY;
      return { ...state, progress: clamp(finite(event.progress), 0, max) };
    }
    case 'volumeChanged':
      return { ...state, volume: Math.round(clamp(event.volume, 0, 100)) };
    case 'ended':
      // No queue yet (a later issue): the track stops and rewinds.
      return { ...state, playing: false, progress: 0 };
  }
}
