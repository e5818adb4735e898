import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { listeningRoutes } from './listening.routes.ts';
import { createListeningService } from './listening.service.ts';
import { createPlaysRepository } from './plays.repository.ts';
import { createStatsRepository } from './stats.repository.ts';

/**
 * Listening records (docs/decisions/0016), recently played and the listener's stats (spec §2),
 * under /api: POST/PATCH /plays, GET /me/recently-played, GET /me/stats.
 */
export function createListeningModule(
  ctx: ModuleContext,
  {
    songs,
    podcasts,
  }: {
    songs: Pick<SongsModule, 'songsByIds'>;
    podcasts: Pick<PodcastsModule, 'episodesByIds'>;
  },
): FeatureModule {
  const listening = createListeningService({
    plays: createPlaysRepository(ctx.database.db),
    stats: createStatsRepository(ctx.database.db),
    songsByIds: songs.songsByIds,
    episodesByIds: podcasts.episodesByIds,
    clock: ctx.clock,
  });
  const routes = listeningRoutes({ listening });
  return {
    name: 'listening',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
