import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { uploadTempDir, type MediaModule } from '../media/media.module.ts';
import { crashPoint } from '../../storage/crash-point.ts';
import { createFfmpeg } from '../../media/ffmpeg.ts';
import { createItunesProvider } from '../../providers/catalogue/itunes.provider.ts';
import { withSearchCache } from './search-cache.ts';
import { createSongsRepository } from './songs.repository.ts';
import { songsRoutes } from './songs.routes.ts';
import { createSongsService } from './songs.service.ts';

/** The catalogue: upload, edit, delete, home, browse, search (spec §2, §5), under /api. */
export function createSongsModule(
  ctx: ModuleContext,
  { media }: { media: Pick<MediaModule, 'publicUrl'> },
): FeatureModule {
  const songs = createSongsService({
    songs: withSearchCache(createSongsRepository(ctx.database.db), {
      ttlMs: ctx.env.searchCacheSeconds * 1000,
      maxEntries: 1000,
      clock: ctx.clock,
      // Podcasts are written elsewhere (no invalidation here), so their search is not kept.
      cached: ['search', 'correctTypos'],
      reads: ['findById', 'displayNameOf', 'newest', 'mostPlayed', 'byGenre', 'searchPodcasts'],
    }),
    storage: ctx.storage,
    catalogue: createItunesProvider({
      baseUrl: ctx.env.catalogueUrl,
      allowPrivate: ctx.env.catalogueAllowPrivate,
      timeoutMs: ctx.env.catalogueTimeoutMs,
      log: ctx.log,
      clock: ctx.clock,
    }),
    tempDir: uploadTempDir(ctx.env),
    ffmpeg: createFfmpeg({ binary: ctx.env.ffmpegPath }),
    log: ctx.log,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out, so it never
    // goes stale in the database.
    publicUrl: media.publicUrl,
    crash: crashPoint(ctx.env.testCrashAt),
  });
  const routes = songsRoutes({ songs, clock: ctx.clock });
  return {
    name: 'songs',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
  };
}
