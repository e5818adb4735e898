import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { ListeningModule } from '../listening/listening.module.ts';
import { createArtistAnalyticsRepository } from './artist-analytics.repository.ts';
import { artistAnalyticsRoutes } from './artist-analytics.routes.ts';
import { createArtistAnalyticsService } from './artist-analytics.service.ts';

/**
 * The artist dashboard's figures (spec §2 Artist dashboard), under /api: GET
 * /artist/analytics, artists only. Read-only SQL over the listening, catalogue, social and
 * money tables (docs/decisions/0024); the daily series comes from the listening module.
 */
export function createArtistAnalyticsModule(
  ctx: Pick<ModuleContext, 'database' | 'clock'>,
  { listening }: { listening: Pick<ListeningModule, 'artistDays'> },
): FeatureModule {
  const analytics = createArtistAnalyticsService({
    analytics: createArtistAnalyticsRepository(ctx.database.db),
    artistDays: (artistId, days) => listening.artistDays(artistId, days),
    clock: ctx.clock,
  });
  const routes = artistAnalyticsRoutes({ analytics });
  return {
    name: 'artist-analytics',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api/artist' })),
  };
}
