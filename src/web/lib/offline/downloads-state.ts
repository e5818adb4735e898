// The page's view of the downloads: the index and the stored subscription check, loaded once
// and kept in memory, so the player can tell synchronously whether an item plays from the
// device. React reads it through useSyncExternalStore (use-downloads-state.ts).
import { audioKey, type DownloadKind, type DownloadsEntitlement } from './download-keys.ts';
import {
  downloadItem,
  listDownloads,
  readEntitlement,
  removeAllDownloads,
  removeItem,
  writeEntitlement,
  type DownloadEntry,
  type DownloadSource,
} from './download-store.ts';

export interface DownloadsSnapshot {
  /** False until the index has been read. */
  ready: boolean;
  /** Newest first. */
  entries: readonly DownloadEntry[];
  /** `${kind}:${id}` of the items being downloaded now. */
  pending: ReadonlySet<string>;
  entitlement: DownloadsEntitlement | null;
}

const supported = () => typeof caches !== 'undefined';
const keyOf = (kind: DownloadKind, id: string) => `${kind}:${id}`;

let snapshot: DownloadsSnapshot = {
  ready: false,
  entries: [],
  pending: new Set(),
  entitlement: null,
};
const listeners = new Set<() => void>();
let loading: Promise<void> | null = null;

function set(next: Partial<DownloadsSnapshot>) {
  snapshot = { ...snapshot, ...next };
  listeners.forEach((l) => l());
}

export const downloadsSupported = supported;

export function subscribeDownloads(listener: () => void): () => void {
  listeners.add(listener);
  void loadDownloads();
  return () => listeners.delete(listener);
}

export const downloadsSnapshot = (): DownloadsSnapshot => snapshot;

/** Reads the index and the stored check once (again after `force`). */
export function loadDownloads(force = false): Promise<void> {
  if (!supported()) {
    if (!snapshot.ready) set({ ready: true });
    return Promise.resolve();
  }
  if (loading && !force) return loading;
  loading = Promise.all([listDownloads(), readEntitlement()])
    // A check answered in this page meanwhile is newer than the stored one (it may not be
    // written yet): the read must not undo a lapse found at app start.
    .then(([entries, stored]) =>
      set({ ready: true, entries, entitlement: snapshot.entitlement ?? stored }),
    )
    .catch((e: unknown) => {
      console.warn('Could not read the downloads', e);
      set({ ready: true });
    });
  return loading;
}

/**
 * Whether `userId`'s downloads may play: their last subscription check said subscribed. A
 * check of another account (a shared device) does not count.
 */
export function downloadsPlayable(userId: string | null, s = snapshot): boolean {
  return !!userId && s.entitlement?.userId === userId && s.entitlement.subscribed;
}

/** The stable URL an item plays from when downloaded and playable, else null. */
export function downloadedUrl(
  kind: DownloadKind,
  id: string,
  userId: string | null,
): string | null {
  if (!downloadsPlayable(userId)) return null;
  return snapshot.entries.some((e) => e.kind === kind && e.id === id) ? audioKey(kind, id) : null;
}

/** The subscription check answered: stored for the page and the service worker. */
export async function recordSubscriptionCheck(userId: string, subscribed: boolean): Promise<void> {
  const current = snapshot.entitlement;
  if (current?.userId === userId && current.subscribed === subscribed) return;
  const entitlement = { userId, subscribed, checkedAt: new Date().toISOString() };
  set({ entitlement });
  if (supported()) await writeEntitlement(entitlement);
}

export async function download(source: DownloadSource): Promise<DownloadEntry> {
  const key = keyOf(source.kind, source.id);
  set({ pending: new Set([...snapshot.pending, key]) });
  try {
    // Asked once, on the first download: the browser then keeps them under storage pressure.
    void navigator.storage?.persist?.().catch(() => false);
    const entry = await downloadItem(source);
    set({
      entries: [entry, ...snapshot.entries.filter((e) => keyOf(e.kind, e.id) !== key)],
    });
    return entry;
  } finally {
    const pending = new Set(snapshot.pending);
    pending.delete(key);
    set({ pending });
  }
}

export async function removeDownload(kind: DownloadKind, id: string): Promise<void> {
  await removeItem(kind, id);
  set({ entries: snapshot.entries.filter((e) => !(e.kind === kind && e.id === id)) });
}

export async function removeEveryDownload(): Promise<void> {
  await removeAllDownloads();
  set({ entries: [] });
}
