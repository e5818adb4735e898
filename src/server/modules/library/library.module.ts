import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { likesRoutes } from './likes.routes.ts';
import { createLikesRepository } from './likes.repository.ts';
import { createLikesService } from './likes.service.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import { playlistsRoutes } from './playlists.routes.ts';
import { createPlaylistsService } from './playlists.service.ts';

/**
 * A listener's library, under /api. Liked songs (spec §2): PUT/DELETE
 * /me/liked-songs/{songId}, GET /me/liked-songs, GET /me/liked-songs/ids. Playlists (spec §2,
 * docs/decisions/0017): GET /me/playlists, POST /playlists, GET/PATCH/DELETE /playlists/{id},
 * POST /playlists/{id}/tracks, PATCH/DELETE /playlists/{id}/tracks/{songId}.
 */
export function createLibraryModule(
  ctx: ModuleContext,
  { songs }: { songs: Pick<SongsModule, 'songsByIds'> },
): FeatureModule {
  const likes = createLikesService({
    likes: createLikesRepository(ctx.database.db),
    songsByIds: songs.songsByIds,
  });
  const playlists = createPlaylistsService({
    playlists: createPlaylistsRepository(ctx.database.db),
    songsByIds: songs.songsByIds,
  });
  return {
    name: 'library',
    plugin: async (app) => {
      await app.register(likesRoutes({ likes }), { prefix: '/api' });
      await app.register(playlistsRoutes({ playlists }), { prefix: '/api' });
    },
  };
}
