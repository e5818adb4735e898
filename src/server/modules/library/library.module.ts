import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { likesRoutes } from './likes.routes.ts';
import { createLikesRepository } from './likes.repository.ts';
import { createLikesService } from './likes.service.ts';

/**
 * A listener's library (spec §2 Liked songs), under /api: PUT/DELETE
 * /me/liked-songs/{songId}, GET /me/liked-songs, GET /me/liked-songs/ids.
 */
export function createLibraryModule(
  ctx: ModuleContext,
  { songs }: { songs: Pick<SongsModule, 'songsByIds'> },
): FeatureModule {
  const likes = createLikesService({
    likes: createLikesRepository(ctx.database.db),
    songsByIds: songs.songsByIds,
  });
  const routes = likesRoutes({ likes });
  return {
    name: 'library',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
