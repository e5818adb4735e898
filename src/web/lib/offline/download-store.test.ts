import { describe, expect, it } from 'vitest';
import { DOWNLOADS_CACHE } from './download-keys.ts';
import {
  DownloadError,
  downloadItem,
  listDownloads,
  removeAllDownloads,
  type DownloadIo,
  type DownloadSource,
} from './download-store.ts';

/** Cache Storage in memory; `failOn` makes one key's put throw what a full disk throws. */
function memoryCaches(failOn?: (key: string) => boolean) {
  const stores = new Map<string, Map<string, Response>>();
  const keyOf = (r: RequestInfo | URL) =>
    new URL(typeof r === 'string' ? r : r instanceof URL ? r.href : r.url, 'http://canto.test')
      .pathname;
  const open = async (name: string) => {
    const map = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, map);
    return {
      put: async (req: RequestInfo | URL, res: Response) => {
        const key = keyOf(req);
        if (failOn?.(key))
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        map.set(key, res);
      },
      match: async (req: RequestInfo | URL) => map.get(keyOf(req))?.clone(),
      delete: async (req: RequestInfo | URL) => map.delete(keyOf(req)),
      keys: async () => [...map.keys()].map((k) => new Request(`http://canto.test${k}`)),
    } as unknown as Cache;
  };
  return {
    stores,
    caches: {
      open,
      delete: async (name: string) => stores.delete(name),
    } as unknown as CacheStorage,
  };
}

const source: DownloadSource = {
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'song',
  title: 'Tune',
  artist: 'Artist',
  audioUrl: '/media/r/tune.webm?sig=1',
  coverUrl: '/media/c/tune.jpg?sig=1',
  durationSeconds: 180,
};

const io = (caches: CacheStorage, room = 10_000_000): DownloadIo => ({
  caches,
  fetch: (async (url: string) =>
    url.includes('tune.webm')
      ? new Response(new Uint8Array(5000), { headers: { 'content-type': 'audio/webm' } })
      : new Response(new Uint8Array(300), {
          headers: { 'content-type': 'image/jpeg' },
        })) as unknown as typeof fetch,
  storage: { estimate: async () => ({ quota: room + 1000, usage: 1000 }) },
});

describe('downloadItem', () => {
  it('stores the file and cover under stable keys, then the index entry', async () => {
    const { caches, stores } = memoryCaches();
    const entry = await downloadItem(source, io(caches));
    expect(entry).toMatchObject({
      bytes: 5300,
      mime: 'audio/webm',
      cover: `/offline/song/${source.id}/cover`,
    });
    expect([...stores.get(DOWNLOADS_CACHE)!.keys()]).toEqual([
      `/offline/song/${source.id}/audio`,
      `/offline/song/${source.id}/cover`,
      `/offline/song/${source.id}/meta`,
    ]);
    expect(await listDownloads(caches)).toEqual([entry]);
  });

  it('refuses when the estimate leaves no room, writing nothing', async () => {
    const { caches } = memoryCaches();
    await expect(downloadItem(source, io(caches, 100))).rejects.toMatchObject({
      reason: 'quota',
    });
    expect(await listDownloads(caches)).toEqual([]);
  });

  it('a write the browser refuses for quota removes what was written; nothing is listed', async () => {
    const { caches, stores } = memoryCaches((key) => key.endsWith('/cover'));
    const failure = await downloadItem(source, io(caches)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DownloadError);
    expect((failure as DownloadError).reason).toBe('quota');
    expect(stores.get(DOWNLOADS_CACHE)!.size).toBe(0);
    expect(await listDownloads(caches)).toEqual([]);
  });

  it('bytes without an index entry (a tab closed mid-download) are swept, and Remove all empties', async () => {
    const { caches, stores } = memoryCaches();
    await downloadItem(source, io(caches));
    const cache = await caches.open(DOWNLOADS_CACHE);
    await cache.put('/offline/song/22222222-2222-4222-8222-222222222222/audio', new Response('x'));
    expect(await listDownloads(caches)).toHaveLength(1);
    expect(stores.get(DOWNLOADS_CACHE)!.size).toBe(3);
    await removeAllDownloads(caches);
    expect(await listDownloads(caches)).toEqual([]);
  });
});
