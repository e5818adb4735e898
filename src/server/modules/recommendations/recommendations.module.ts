import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { LibraryModule } from '../library/library.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { createNeighboursJob } from './neighbours-job.ts';
import { createRecommendationsRepository } from './recommendations.repository.ts';
import { recommendationsRoutes } from './recommendations.routes.ts';
import {
  createRecommendationsService,
  type RecommendationsService,
} from './recommendations.service.ts';

export { NEIGHBOURS_JOB } from './neighbours-job.ts';

export type RecommendationsModule = FeatureModule & {
  /**
   * The listener's recommendations as GET /api/recommendations answers them (the companion's
   * get_recommendations, in-process, with its genre).
   */
  recommend: RecommendationsService['recommend'];
  /** Rewrites the co-listening table now (what the periodic job does); the rows written. */
  refreshNeighbours(): Promise<number>;
};

/**
 * Recommendations (docs/decisions/0032) under /api: GET /recommendations (the companion's
 * get_recommendations asks it with ?genre=), POST/GET /recommendations/playlist (the AI mix,
 * made through the library); and the job that keeps the co-listening table.
 */
export function createRecommendationsModule(
  ctx: ModuleContext,
  {
    songs,
    library,
    settings,
  }: {
    songs: Pick<SongsModule, 'songsByIds'>;
    library: Pick<
      LibraryModule,
      'createPlaylistWithSongs' | 'replacePlaylistSongs' | 'playlistSongIds'
    >;
    /** refreshMinutes: how often the co-listening table is rebuilt; 0: not scheduled here. */
    settings: { refreshMinutes: number };
  },
): RecommendationsModule {
  const repository = createRecommendationsRepository(ctx.database.db);
  const recommendations = createRecommendationsService({
    repository,
    library,
    songsByIds: songs.songsByIds,
    clock: ctx.clock,
  });
  const job = createNeighboursJob({
    jobs: ctx.jobs,
    neighbours: repository,
    clock: ctx.clock,
    log: ctx.log,
    intervalMs: Math.max(1, settings.refreshMinutes) * 60_000,
  });
  job.register();
  return {
    name: 'recommendations',
    refreshNeighbours: () => repository.refreshNeighbours(),
    recommend: (userId, query) => recommendations.recommend(userId, query),
    plugin: async (app) => {
      await app.register(recommendationsRoutes({ recommendations }), { prefix: '/api' });
      if (settings.refreshMinutes > 0)
        app.addHook('onReady', async () => void (await job.schedule()));
    },
  };
}
