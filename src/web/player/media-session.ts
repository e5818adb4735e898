// The Media Session API (issue 9 point 8): lock screens, notification shades and hardware
// media keys show the item (title, artist, artwork) and drive the player. Absent in some
// browsers and in insecure contexts: then nothing happens.
import type { PlayerItem } from './use-player.ts';

export interface MediaSessionControls {
  play(): void;
  pause(): void;
  next(): void;
  previous(): void;
  seek(seconds: number): void;
  /** Episodes only: the lock screen's skip back / forward (by the given or default step). */
  skipBy?: { back: number; forward: number; run(seconds: number): void };
}

const session = (): MediaSession | null =>
  typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null;

/** Sets the action handlers; returns what removes them. */
export function bindMediaSession(controls: MediaSessionControls): () => void {
  const ms = session();
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
}

function absolute(url: string): string {
  return new URL(url, window.location.href).href;
}

export function showMediaSessionItem(item: PlayerItem | null): void {
  const ms = session();
  if (!ms || typeof MediaMetadata === 'undefined') return;
  ms.metadata = item
    ? new MediaMetadata({
        title: item.title,
        artist: item.podcastTitle,
        album: 'Canto',
        artwork: item.coverArt ? [{ src: absolute(item.coverArt) }] : [],
      })
    : null;
}

export function showMediaSessionState(playing: boolean | null): void {
  const ms = session();
  if (ms) ms.playbackState = playing === null ? 'none' : playing ? 'playing' : 'paused';
}

export function showMediaSessionPosition(progress: number, duration: number, rate = 1): void {
  const ms = session();
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
}
