// Downloads in Cache Storage: the file and cover under stable keys, then a small JSON index
// entry LAST, so an item is listed (and counted) only once all its bytes are stored. A quota
// failure removes what was written. I/O comes in (fetch, caches, storage), so it is testable.
import {
  audioKey,
  coverKey,
  DOWNLOADS_CACHE,
  DOWNLOADS_PATH,
  ENTITLEMENT_KEY,
  metaKey,
  type DownloadKind,
  type DownloadsEntitlement,
} from './download-keys.ts';

/** What is downloaded: the signed URLs are read once, the stable keys kept. */
export interface DownloadSource {
  id: string;
  kind: DownloadKind;
  title: string;
  artist: string;
  /** The signed URL of the file to store (a song's Opus rendition, an episode's audio). */
  audioUrl: string;
  coverUrl: string | null;
  durationSeconds: number | null;
  /** Songs: the uploading artist; episodes: their show. */
  artistId?: string;
  podcastId?: string;
}

/** A downloaded item as the index keeps it. */
export interface DownloadEntry {
  id: string;
  kind: DownloadKind;
  title: string;
  artist: string;
  /** The stable key of the stored cover, or null when there is none. */
  cover: string | null;
  durationSeconds: number | null;
  /** File and cover, as stored. */
  bytes: number;
  mime: string;
  downloadedAt: string;
  artistId?: string;
  podcastId?: string;
}

export type DownloadFailure = 'quota' | 'unavailable';

export class DownloadError extends Error {
  constructor(
    readonly reason: DownloadFailure,
    message: string,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export const quotaMessage = (title: string) =>
  `Not enough storage on this device to download “${title}”. Remove some downloads and try again.`;

export interface DownloadIo {
  fetch: typeof fetch;
  caches: CacheStorage;
  /** navigator.storage, when the browser has it. */
  storage?: Pick<StorageManager, 'estimate'>;
}

const browserIo = (): DownloadIo => ({
  fetch: (...args) => fetch(...args),
  caches,
  storage: navigator.storage,
});

const isQuotaError = (e: unknown) =>
  e instanceof DOMException && (e.name === 'QuotaExceededError' || e.code === 22);

/** Room left by the browser's estimate; null when it gives none. */
async function roomLeft(storage: DownloadIo['storage']): Promise<number | null> {
  if (!storage?.estimate) return null;
  const { quota, usage } = await storage.estimate();
  return quota === undefined || usage === undefined ? null : quota - usage;
}

/**
 * Stores one item: its file and cover, then its index entry. Throws DownloadError('quota')
 * when the estimate leaves no room or the browser refuses the write, with nothing left behind.
 */
export async function downloadItem(
  source: DownloadSource,
  io: DownloadIo = browserIo(),
): Promise<DownloadEntry> {
  const response = await io.fetch(source.audioUrl, { credentials: 'same-origin' });
  if (!response.ok) {
    throw new DownloadError('unavailable', `“${source.title}” could not be downloaded.`);
  }
  const audio = await response.blob();
  let cover: Blob | null = null;
  if (source.coverUrl) {
    // A cover that fails is left out: the file is what plays.
    cover = await io
      .fetch(source.coverUrl)
      .then((r) => (r.ok ? r.blob() : null))
      .catch(() => null);
  }
  const bytes = audio.size + (cover?.size ?? 0);
  const room = await roomLeft(io.storage);
  if (room !== null && room < bytes) throw new DownloadError('quota', quotaMessage(source.title));

  const mime = response.headers.get('content-type') ?? (audio.type || 'audio/webm');
  const entry: DownloadEntry = {
    id: source.id,
    kind: source.kind,
    title: source.title,
    artist: source.artist,
    cover: cover ? coverKey(source.kind, source.id) : null,
    durationSeconds: source.durationSeconds,
    bytes,
    mime,
    downloadedAt: new Date().toISOString(),
    ...(source.artistId && { artistId: source.artistId }),
    ...(source.podcastId && { podcastId: source.podcastId }),
  };
  const cache = await io.caches.open(DOWNLOADS_CACHE);
  try {
    await cache.put(
      audioKey(source.kind, source.id),
      new Response(audio, {
        headers: { 'content-type': mime, 'content-length': String(audio.size) },
      }),
    );
    if (cover) {
      await cache.put(
        coverKey(source.kind, source.id),
        new Response(cover, { headers: { 'content-type': cover.type || 'image/jpeg' } }),
      );
    }
    // Last: an entry exists only once every byte of the item is stored.
    await cache.put(
      metaKey(source.kind, source.id),
      new Response(JSON.stringify(entry), { headers: { 'content-type': 'application/json' } }),
    );
    // Another tab sweeping half-written items may have taken the file meanwhile.
    if (!(await cache.match(audioKey(source.kind, source.id)))) {
      throw new DownloadError('unavailable', `“${source.title}” could not be downloaded.`);
    }
  } catch (e) {
    await removeItem(source.kind, source.id, io.caches);
    if (isQuotaError(e)) throw new DownloadError('quota', quotaMessage(source.title));
    throw e;
  }
  return entry;
}

/** Removes an item: its index entry first (it stops being listed), then its bytes. */
export async function removeItem(
  kind: DownloadKind,
  id: string,
  store: CacheStorage = caches,
): Promise<void> {
  const cache = await store.open(DOWNLOADS_CACHE);
  await cache.delete(metaKey(kind, id));
  await Promise.all([cache.delete(audioKey(kind, id)), cache.delete(coverKey(kind, id))]);
}

/** Every downloaded item, newest first; bytes without an index entry are swept away. */
export async function listDownloads(store: CacheStorage = caches): Promise<DownloadEntry[]> {
  const cache = await store.open(DOWNLOADS_CACHE);
  const keys = (await cache.keys()).map((r) => new URL(r.url).pathname);
  const entries: DownloadEntry[] = [];
  for (const key of keys.filter((k) => k.endsWith('/meta'))) {
    const res = await cache.match(key);
    if (res) entries.push((await res.json()) as DownloadEntry);
  }
  const listed = new Set(entries.map((e) => `${DOWNLOADS_PATH}${e.kind}/${e.id}/`));
  // Half-written items (a tab closed mid-download) are not downloads: their bytes go.
  const orphans = keys.filter(
    (k) => k !== ENTITLEMENT_KEY && !listed.has(k.slice(0, k.lastIndexOf('/') + 1)),
  );
  await Promise.all(orphans.map((k) => cache.delete(k)));
  return entries.sort((a, b) => b.downloadedAt.localeCompare(a.downloadedAt));
}

/** Removes every download; the stored subscription check stays. */
export async function removeAllDownloads(store: CacheStorage = caches): Promise<void> {
  const cache = await store.open(DOWNLOADS_CACHE);
  const keys = (await cache.keys()).filter((r) => new URL(r.url).pathname !== ENTITLEMENT_KEY);
  // Index entries first: nothing is listed while its bytes go.
  const metas = keys.filter((r) => r.url.endsWith('/meta'));
  await Promise.all(metas.map((r) => cache.delete(r)));
  await Promise.all(keys.map((r) => cache.delete(r)));
}

export async function readEntitlement(
  store: CacheStorage = caches,
): Promise<DownloadsEntitlement | null> {
  const res = await (await store.open(DOWNLOADS_CACHE)).match(ENTITLEMENT_KEY);
  return res ? ((await res.json()) as DownloadsEntitlement) : null;
}

export async function writeEntitlement(
  entitlement: DownloadsEntitlement,
  store: CacheStorage = caches,
): Promise<void> {
  await (
    await store.open(DOWNLOADS_CACHE)
  ).put(
    ENTITLEMENT_KEY,
    new Response(JSON.stringify(entitlement), { headers: { 'content-type': 'application/json' } }),
  );
}
