import type { Clock } from '../../../core/clock.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { createAdmission } from './search-admission.ts';
import { createSearchCache } from './search-cache.ts';
import { createSearchRepository, type SearchRepository } from './search.repository.ts';
import { searchRoutes } from './search.routes.ts';
import { createSearchService } from './search.service.ts';

/**
 * The repository's search as the service reads it (ADR 0011): answers cached, and admission
 * under the cache, so that a cached answer never waits for a place; `invalidate` drops the
 * answers (the songs module's writes call it).
 */
export function readsForSearch(
  repository: Pick<SearchRepository, 'searchForgivingTypos'>,
  options: { ttlMs: number; limit: number; clock: Clock },
) {
  const cache = createSearchCache({ ttlMs: options.ttlMs, maxEntries: 1000, clock: options.clock });
  const admission = createAdmission({ limit: options.limit });
  return {
    searchSongs: cache.keep(admission.admit(repository.searchForgivingTypos)),
    invalidate: cache.invalidate,
  };
}

/**
 * Search (spec §7; ADR 0011), under /api: songs by title, genre or artist with typos
 * forgiven, through its own SQL over songs' tables (read only), its answer cache and its
 * admission; podcasts through the podcasts module; the external catalogue through songs.
 */
export type SearchSettings = {
  /** SEARCH_CACHE_SECONDS and SEARCH_CONCURRENCY (ADR 0011 "Admission"). */
  cacheSeconds: number;
  concurrency: number;
};

export function createSearchModule(
  ctx: ModuleContext,
  {
    songs,
    podcasts,
    settings,
  }: {
    songs: Pick<SongsModule, 'songDtos' | 'externalSongs' | 'onCatalogueWrite'>;
    podcasts: Pick<PodcastsModule, 'searchShows'>;
    settings: SearchSettings;
  },
): FeatureModule {
  const reads = readsForSearch(createSearchRepository(ctx.database.db), {
    ttlMs: settings.cacheSeconds * 1000,
    limit: settings.concurrency,
    clock: ctx.clock,
  });
  // Podcasts are written elsewhere and announce nothing, so their search is not kept.
  songs.onCatalogueWrite(reads.invalidate);
  const search = createSearchService({
    searchSongs: reads.searchSongs,
    songDtos: songs.songDtos,
    externalSongs: songs.externalSongs,
    searchShows: podcasts.searchShows,
  });
  const routes = searchRoutes({ search, clock: ctx.clock });
  return {
    name: 'search',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
