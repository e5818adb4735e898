import { z } from 'zod';
import type { CatalogueProvider, ExternalTrack } from './catalogue-provider.ts';

type Log = { warn(obj: object, msg: string): void };

export type ItunesOptions = {
  /** CATALOGUE_URL, e.g. https://itunes.apple.com (tests point it at a local fake). */
  baseUrl: string;
  log: Log;
  timeoutMs?: number;
  /** Answers are kept this long (the public API allows ~20 calls a minute); 0 turns it off. */
  cacheTtlMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
};

const CACHE_ENTRIES = 500;

// Only https media: the page's CSP allows https media, and a javascript: or data: URL from
// a third party must never reach an <img> or <audio>.
const httpsUrl = z
  .string()
  .refine((v) => {
    try {
      return new URL(v).protocol === 'https:';
    } catch {
      return false;
    }
  })
  .optional()
  .catch(undefined);

const result = z.object({
  trackId: z.union([z.number(), z.string()]).optional().catch(undefined),
  trackName: z.string().optional().catch(undefined),
  artistName: z.string().optional().catch(undefined),
  primaryGenreName: z.string().optional().catch(undefined),
  artworkUrl100: httpsUrl,
  previewUrl: httpsUrl,
  trackTimeMillis: z.number().optional().catch(undefined),
  releaseDate: z.string().optional().catch(undefined),
});
const response = z.object({ results: z.array(z.unknown()) });

const clip = (s: string | undefined, max: number) => (s ? s.slice(0, max) : null);

/**
 * The iTunes Search API: keyless, public, 30 s previews.
 * `GET {base}/search?term=…&entity=song&limit=N` → `{ results: [{ trackId, trackName, … }] }`.
 */
export function createItunesProvider(options: ItunesOptions): CatalogueProvider {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3000;
  const ttl = options.cacheTtlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  // Successful answers only: a failure is retried by the next request.
  const cache = new Map<string, { at: number; tracks: ExternalTrack[] }>();
  return {
    source: 'itunes',
    async searchTracks(query, limit) {
      const cacheKey = `${limit}\u0000${query.toLowerCase()}`;
      const hit = cache.get(cacheKey);
      if (hit && now() - hit.at < ttl) return hit.tracks;
      const tracks = await search(query, limit);
      if (tracks && ttl > 0) {
        cache.delete(cacheKey);
        cache.set(cacheKey, { at: now(), tracks });
        // Oldest insertion first: a Map iterates in insertion order.
        while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      }
      return tracks ?? [];
    },
  };

  async function search(query: string, limit: number): Promise<ExternalTrack[] | null> {
    const url = new URL(`${options.baseUrl}/search`);
    url.searchParams.set('term', query);
    url.searchParams.set('entity', 'song');
    url.searchParams.set('limit', String(limit));
    try {
      const res = await doFetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`catalogue answered ${res.status}`);
      const body = response.parse(await res.json());
      const tracks: ExternalTrack[] = [];
      for (const raw of body.results) {
        const r = result.safeParse(raw);
        if (!r.success) continue;
        const t = r.data;
        if (t.trackId === undefined || !t.trackName || !t.previewUrl) continue;
        const released = t.releaseDate ? new Date(t.releaseDate) : null;
        tracks.push({
          source: 'itunes',
          externalId: String(t.trackId),
          title: t.trackName.slice(0, 200),
          artist: clip(t.artistName, 200),
          genre: clip(t.primaryGenreName, 100),
          coverArtUrl: t.artworkUrl100 ?? null,
          previewUrl: t.previewUrl,
          durationMs:
            t.trackTimeMillis !== undefined && t.trackTimeMillis >= 0
              ? Math.round(t.trackTimeMillis)
              : null,
          releasedAt: released && !Number.isNaN(released.getTime()) ? released : null,
        });
        if (tracks.length >= limit) break;
      }
      return tracks;
    } catch (error) {
      // Spec §8: catalogue failures are only logged; the caller shows an empty list.
      options.log.warn({ err: error, query }, 'external catalogue search failed');
      return null;
    }
  }
}
