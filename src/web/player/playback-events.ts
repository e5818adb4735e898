// What the player tells the rest of the app as it plays, so a feature can follow playback
// (the podcasts' cache follows saved episode positions) without the player importing it. The
// composition layer or the feature's own hook subscribes; a listener that throws is logged and
// the others still hear the event.
import type { EpisodeProgressSaved } from './episode-progress.ts';

export interface PlaybackEventMap {
  /** An episode's position was saved on the server (completed as the server answered). */
  episodeProgressSaved: EpisodeProgressSaved;
}

export type PlaybackEventType = keyof PlaybackEventMap;
type Listener<K extends PlaybackEventType> = (event: PlaybackEventMap[K]) => void;

export class PlaybackEvents {
  private readonly listeners = new Map<PlaybackEventType, Set<Listener<PlaybackEventType>>>();

  constructor(
    private readonly log: (message: string, error: unknown) => void = (m, e) => console.warn(m, e),
  ) {}

  /** Listens to `type`; returns what stops listening. */
  on<K extends PlaybackEventType>(type: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    const added = listener as Listener<PlaybackEventType>;
    set.add(added);
    return () => {
      set.delete(added);
    };
  }

  emit<K extends PlaybackEventType>(type: K, event: PlaybackEventMap[K]): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) {
      try {
        listener(event);
      } catch (e) {
        this.log(`A listener of ${type} failed`, e);
      }
    }
  }
}
