// The Media Session API: lock screens, notification shades and hardware
// media keys show the item (title, artist, artwork) and drive the player. Absent in some
// browsers and in insecure contexts: then nothing happens. The session comes in (the
// browser's, or a fake in tests), so what is shown and bound is tested without a browser.
import {
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from '@/core/validation/podcast-playback.rules.ts';
import type { PlayerControls, PlayerItem } from './use-player.ts';

export interface MediaSessionControls {
  play(): void;
  pause(): void;
  next(): void;
  previous(): void;
  seek(seconds: number): void;
  /** Episodes only: the lock screen's skip back / forward (by the given or default step). */
  skipBy?: { back: number; forward: number; run(seconds: number): void };
}

/** What the player uses of `navigator.mediaSession`. */
export interface MediaSessionPort {
  metadata: unknown;
  playbackState: MediaSessionPlaybackState;
  setActionHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null): void;
  setPositionState?(state?: MediaPositionState): void;
}

export interface MediaSessionView {
  /** Sets the action handlers; returns what removes them. */
  bind(controls: MediaSessionControls): () => void;
  showItem(item: PlayerItem | null): void;
  showState(playing: boolean | null): void;
  showPosition(progress: number, duration: number, rate?: number): void;
}

/** What the lock screen shows of an item; artwork as an absolute URL. */
export interface MediaSessionItem {
  title: string;
  artist: string;
  album: string;
  artwork: Array<{ src: string }>;
}

export function mediaSessionView(
  ms: MediaSessionPort | null,
  /** Builds the session's metadata (MediaMetadata in the browser); null where it is absent. */
  metadata: ((item: MediaSessionItem) => unknown) | null,
  /** The page's URL, which relative artwork URLs resolve against. */
  base: () => string,
): MediaSessionView {
  return {
    bind(controls) {
      if (!ms) return () => undefined;
      const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
        ['play', () => controls.play()],
        ['pause', () => controls.pause()],
        ['nexttrack', () => controls.next()],
        ['previoustrack', () => controls.previous()],
        [
          'seekto',
          (d) => {
            if (typeof d.seekTime === 'number') controls.seek(d.seekTime);
          },
        ],
      ];
      const skip = controls.skipBy;
      if (skip) {
        handlers.push(
          ['seekbackward', (d) => skip.run(-(d.seekOffset ?? skip.back))],
          ['seekforward', (d) => skip.run(d.seekOffset ?? skip.forward)],
        );
      }
      const set = (handler: (a: MediaSessionAction) => MediaSessionActionHandler | null) => {
        for (const [action] of handlers) {
          try {
            ms.setActionHandler(action, handler(action));
          } catch {
            // An action this browser does not know.
          }
        }
      };
      set((action) => handlers.find(([a]) => a === action)![1]);
      return () => set(() => null);
    },

    showItem(item) {
      if (!ms || !metadata) return;
      ms.metadata = item
        ? metadata({
            title: item.title,
            artist: item.podcastTitle,
            album: 'Canto',
            artwork: item.coverArt ? [{ src: new URL(item.coverArt, base()).href }] : [],
          })
        : null;
    },

    showState(playing) {
      if (ms) ms.playbackState = playing === null ? 'none' : playing ? 'playing' : 'paused';
    },

    showPosition(progress, duration, rate = 1) {
      if (!ms?.setPositionState) return;
      try {
        if (duration > 0) {
          ms.setPositionState({
            duration,
            position: Math.min(progress, duration),
            playbackRate: rate,
          });
        } else {
          ms.setPositionState();
        }
      } catch {
        // A position the browser refuses (a race with a new duration): the next tick fixes it.
      }
    },
  };
}

/** The browser's session (nothing where the API is absent). */
export const browserMediaSession = (): MediaSessionView =>
  mediaSessionView(
    typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null,
    typeof MediaMetadata === 'undefined' ? null : (item) => new MediaMetadata(item),
    () => window.location.href,
  );

/** The lock screen's buttons as player controls: play and pause only change what they name,
 * and episodes get the skips back and forward. */
export function playerMediaControls(
  controls: Pick<PlayerControls, 'toggle' | 'next' | 'previous' | 'seek' | 'skipBy'>,
  isPlaying: () => boolean,
  episode: boolean,
): MediaSessionControls {
  return {
    play: () => {
      if (!isPlaying()) controls.toggle();
    },
    pause: () => {
      if (isPlaying()) controls.toggle();
    },
    next: () => controls.next(),
    previous: () => controls.previous(),
    seek: (seconds) => controls.seek(seconds),
    skipBy: episode
      ? {
          back: SKIP_BACK_SECONDS,
          forward: SKIP_FORWARD_SECONDS,
          run: (seconds) => controls.skipBy(seconds),
        }
      : undefined,
  };
}
