// The player kept across a reload: the machine's `persistable` part as
// JSON in localStorage, per signed-in user (another account on this browser gets its own),
// given back to the machine's `restored` (which checks each field and comes back paused).
// Items also carry what the engine needs (media, kind, duration, waveform; an episode's show
// and resume point), checked here. PlayerKeeper says when to restore and when to keep, over a
// store that comes in (localStorage, or a fake in tests).
import {
  persistable,
  type PersistedPlayer,
  type PlayableItem,
  type PlayerState,
} from '@/core/player/player-machine.ts';
import type { PlayerMedia } from './rendition-choice.ts';
import type { PlayerItem } from './use-player.ts';

const VERSION = 1;
export const storageKey = (userId: string) => `canto:player:${userId}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function mediaOf(v: unknown): PlayerMedia | null {
  if (!isObject(v)) return null;
  const { status, original, renditions, gainDb } = v;
  if (status !== 'processing' && status !== 'ready' && status !== 'failed') return null;
  if (typeof original !== 'string' || !Array.isArray(renditions)) return null;
  const valid = renditions.filter(
    (r): r is PlayerMedia['renditions'][number] =>
      isObject(r) &&
      typeof r.url === 'string' &&
      typeof r.mime === 'string' &&
      typeof r.bitrate_kbps === 'number',
  );
  const gain = typeof gainDb === 'number' && Number.isFinite(gainDb) ? gainDb : null;
  return { status, original, renditions: valid, gainDb: gain };
}

/** An item from storage as the engine takes it; the machine checks the PlayableItem part. */
export function asPlayerItem(item: PlayableItem): PlayerItem {
  const o = item as PlayableItem & Record<string, unknown>;
  return {
    id: item.id,
    title: item.title,
    audioUrl: item.audioUrl,
    podcastTitle: item.podcastTitle,
    coverArt: item.coverArt,
    media: mediaOf(o.media),
    kind: o.kind === 'episode' ? 'episode' : 'song',
    durationSeconds:
      typeof o.durationSeconds === 'number' && Number.isFinite(o.durationSeconds)
        ? o.durationSeconds
        : undefined,
    waveformUrl: typeof o.waveformUrl === 'string' ? o.waveformUrl : null,
    ...(o.kind !== 'episode' && typeof o.artistId === 'string' && { artistId: o.artistId }),
    ...(o.kind === 'episode' && episodeExtras(o)),
  };
}

/** An episode's show and resume point, when they read right. */
function episodeExtras(o: Record<string, unknown>): Pick<PlayerItem, 'podcastId' | 'resumeAt'> {
  const { podcastId, resumeAt } = o;
  return {
    podcastId: typeof podcastId === 'string' ? podcastId : undefined,
    resumeAt:
      typeof resumeAt === 'number' && Number.isFinite(resumeAt) && resumeAt > 0 ? resumeAt : 0,
  };
}

export function encodePlayer(state: PlayerState): string {
  return JSON.stringify({ version: VERSION, player: persistable(state) });
}

/** What `restored` takes, or null for nothing usable (absent, another version, not JSON). */
export function decodePlayer(raw: string | null): Partial<PlayerState> | null {
  if (!raw) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(doc) || doc.version !== VERSION || !isObject(doc.player)) return null;
  const saved = doc.player as Partial<PersistedPlayer> & Record<string, unknown>;
  const list = (v: unknown) =>
    Array.isArray(v)
      ? v.filter(isObject).map((it) => asPlayerItem(it as unknown as PlayableItem))
      : v;
  return {
    ...saved,
    current: isObject(saved.current) ? asPlayerItem(saved.current) : null,
    queue: list(saved.queue) as PlayableItem[] | undefined,
    history: list(saved.history) as PlayableItem[] | undefined,
    unshuffledQueue: list(saved.unshuffledQueue) as PlayableItem[] | null | undefined,
  };
}

export function loadPlayer(userId: string): Partial<PlayerState> | null {
  try {
    return decodePlayer(localStorage.getItem(storageKey(userId)));
  } catch {
    return null;
  }
}

export function savePlayer(userId: string, state: PlayerState): void {
  try {
    localStorage.setItem(storageKey(userId), encodePlayer(state));
  } catch {
    // Storage refused (privacy mode, full quota): the player just is not kept.
  }
}

/** Where the player is kept per user. */
export interface PlayerStore {
  load(userId: string): Partial<PlayerState> | null;
  save(userId: string, state: PlayerState): void;
}

export const browserPlayerStore: PlayerStore = { load: loadPlayer, save: savePlayer };

export class PlayerKeeper {
  private restoredFor: string | null = null;

  constructor(private readonly store: PlayerStore = browserPlayerStore) {}

  /**
   * The first time `userId` is seen: what was kept for them (`saved` null when nothing was);
   * null when the player was already restored for them.
   */
  restore(userId: string): { saved: Partial<PlayerState> | null } | null {
    if (this.restoredFor === userId) return null;
    this.restoredFor = userId;
    return { saved: this.store.load(userId) };
  }

  /** Keeps the player of `userId`; not before it was restored for them, so the empty player
   * of a first render is never written over the one kept. */
  save(userId: string | null, state: PlayerState): void {
    if (userId !== null && this.restoredFor === userId) this.store.save(userId, state);
  }
}
