import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import {
  LISTENER_TOTALS_FOLD_BATCH,
  PLAY_COUNT_FOLD_BATCH,
} from '../../../core/validation/listening.rules.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { createArtistDaysRepository, type ArtistDay } from './artist-days.repository.ts';
import { listeningRoutes } from './listening.routes.ts';
import { createListeningService } from './listening.service.ts';
import { createPlayCountFold } from './play-count-fold.ts';
import { createPlaysRepository } from './plays.repository.ts';
import { createStatsRepository } from './stats.repository.ts';

export type ListeningModule = FeatureModule & {
  /**
   * An artist's streams and unique listeners per UTC day over the last `days` days, today
   * included, oldest first (the artist dashboard; finished days kept in
   * artist_daily_analytics, docs/decisions/0016).
   */
  artistDays(artistId: string, days: number): Promise<ArtistDay[]>;
};

/**
 * Listening records (docs/decisions/0016), recently played and the listener's stats (spec §2),
 * under /api: POST/PATCH /plays, GET /me/recently-played, GET /me/stats; and the fold of plays
 * into songs.play_count and of listening_deltas into the listener totals.
 */
export function createListeningModule(
  ctx: ModuleContext,
  {
    songs,
    podcasts,
    settings,
  }: {
    songs: Pick<SongsModule, 'songsByIds'>;
    podcasts: Pick<PodcastsModule, 'episodesByIds'>;
    /** foldSeconds: how often pending plays and totals are folded; 0: never in this process. */
    settings: { foldSeconds: number };
  },
): ListeningModule {
  const plays = createPlaysRepository(ctx.database.db);
  const fold = createPlayCountFold({
    folds: [
      { fold: (batch) => plays.foldPlayCounts(batch), batch: PLAY_COUNT_FOLD_BATCH },
      { fold: (batch) => plays.foldListenerTotals(batch), batch: LISTENER_TOTALS_FOLD_BATCH },
    ],
    log: ctx.log,
    intervalMs: settings.foldSeconds * 1000,
  });
  const listening = createListeningService({
    plays,
    stats: createStatsRepository(ctx.database.db),
    songsByIds: songs.songsByIds,
    episodesByIds: podcasts.episodesByIds,
    clock: ctx.clock,
  });
  const routes = listeningRoutes({ listening });
  const artistDays = createArtistDaysRepository(ctx.database.db);
  return {
    name: 'listening',
    async artistDays(artistId, days) {
      const now = ctx.clock.now();
      const today = now.toISOString().slice(0, 10);
      const first = new Date(Date.parse(today) - (Math.max(1, days) - 1) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      await artistDays.rollUp(artistId, first, today, now);
      return artistDays.read(artistId, first, today);
    },
    plugin: async (app) => {
      await app.register(routes, { prefix: '/api' });
      // Pending play counts and listener totals are folded in batches while the app runs.
      if (settings.foldSeconds > 0) app.addHook('onReady', async () => fold.start());
      app.addHook('onClose', async () => fold.stop());
    },
  };
}
