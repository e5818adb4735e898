import { z } from 'zod';
import type { Clock } from '../../../core/clock.ts';
import {
  createOutboundClient,
  isPublicHttpsUrl,
  type Resolve,
} from '../../security/outbound-guard.ts';
import type { CatalogueProvider, ExternalTrack } from './catalogue-provider.ts';
import { CircuitBreaker, type BreakerOptions } from './circuit-breaker.ts';
import type { Log } from '../../log.ts';

export type ItunesOptions = {
  /** CATALOGUE_URL, e.g. https://itunes.apple.com (tests point it at a local fake). */
  baseUrl: string;
  /** CATALOGUE_ALLOW_PRIVATE: lets the fake on 127.0.0.1 through; off in production. */
  allowPrivate: boolean;
  log: Log;
  clock: Clock;
  /** CATALOGUE_TIMEOUT_MS: the whole request, body included. */
  timeoutMs?: number;
  /** Answers are kept this long (the public API allows ~20 calls a minute); 0 turns it off. */
  cacheTtlMs?: number;
  breaker?: Partial<Omit<BreakerOptions, 'clock'>>;
  /** Host name resolution (tests inject one to play a name that resolves to a private address). */
  resolve?: Resolve;
};

const CACHE_ENTRIES = 500;

// Only https media on public hosts: the page's CSP allows https media, a javascript: or data:
// URL from a third party must never reach an <img> or <audio>, and neither must a URL that
// makes the listener's browser call into their own network (router, localhost services).
const httpsUrl = z.string().refine(isPublicHttpsUrl).optional().catch(undefined);

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
 * Requests pass the outbound guard (public addresses only, no redirects), and a circuit
 * breaker stops searches waiting on a catalogue that keeps failing (offline, hanging).
 */
export function createItunesProvider(options: ItunesOptions): CatalogueProvider {
  const { log, clock } = options;
  const client = createOutboundClient({
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
  });
  const timeoutMs = options.timeoutMs ?? 3000;
  const ttl = options.cacheTtlMs ?? 10 * 60_000;
  const breaker = new CircuitBreaker({
    clock,
    threshold: 3,
    coolDownMs: 30_000,
    maxCoolDownMs: 5 * 60_000,
    ...options.breaker,
  });
  // Successful answers only: a failure is remembered by the breaker, not per query.
  const cache = new Map<string, { at: number; tracks: ExternalTrack[] }>();
  return {
    source: 'itunes',
    async searchTracks(query, limit) {
      const cacheKey = `${limit}\u0000${query.toLowerCase()}`;
      const hit = cache.get(cacheKey);
      if (hit && clock.now().getTime() - hit.at < ttl) return hit.tracks;
      if (!breaker.tryAcquire()) return [];
      let tracks: ExternalTrack[];
      try {
        tracks = await search(query, limit);
      } catch (error) {
        // Spec §8: catalogue failures are only logged; the caller shows an empty list. One
        // warning per outage: the failures before it are info, failed trials debug.
        const outcome = breaker.failed();
        if (outcome === 'opened')
          log.warn(
            { err: error, query },
            'external catalogue keeps failing: searches skip it until a trial request succeeds',
          );
        else if (outcome === 'counted')
          log.info({ err: error, query }, 'external catalogue search failed');
        else log.debug({ err: error, query }, 'external catalogue still failing');
        return [];
      }
      if (breaker.succeeded()) log.info({}, 'external catalogue answers again');
      if (ttl > 0) {
        cache.delete(cacheKey);
        cache.set(cacheKey, { at: clock.now().getTime(), tracks });
        // Oldest insertion first: a Map iterates in insertion order.
        while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      }
      return tracks;
    },
  };

  async function search(query: string, limit: number): Promise<ExternalTrack[]> {
    const url = new URL(`${options.baseUrl}/search`);
    url.searchParams.set('term', query);
    url.searchParams.set('entity', 'song');
    url.searchParams.set('limit', String(limit));
    const res = await client.get(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    // A 3xx is not followed: it could point at another host or into the private network.
    if (res.status < 200 || res.status > 299) throw new Error(`catalogue answered ${res.status}`);
    const body = response.parse(JSON.parse(res.body.toString('utf8')));
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
  }
}
