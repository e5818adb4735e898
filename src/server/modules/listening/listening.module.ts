import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PodcastsModule } from '../podcasts/podcasts.module.ts';
import {
  LISTENER_TOTALS_FOLD_BATCH,
  PLAY_COUNT_FOLD_BATCH,
} from '../../../core/validation/listening.rules.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { createArtistDaysRepository, type ArtistDay } from './artist-days.repository.ts';
import { listeningRoutes } from './listening.routes.ts';
import {
  createListeningService,
  type SongPlay,
  type SongPlayListener,
  type SongPlayProgress,
} from './listening.service.ts';
import { createPlayCountFold } from './play-count-fold.ts';
import { createPlaysRepository } from './plays.repository.ts';
import { createPlayersRepository, type PlayQueueRow } from './players.repository.ts';
import { createStatsRepository } from './stats.repository.ts';

export type ListeningModule = FeatureModule & {
  /**
   * An artist's streams and unique listeners per UTC day over the last `days` days, today
   * included, oldest first (the artist dashboard; finished days kept in
   * artist_daily_analytics, docs/decisions/0016).
   */
  artistDays(artistId: string, days: number): Promise<ArtistDay[]>;
  /**
   * Finished plays reported afterwards (Subsonic scrobble): each song heard for its whole
   * duration from `playedAt`, counted as any play (play_count, stats, revenue). All or
   * nothing: null when a song does not exist. The same (listener, song, playedAt) again is
   * not recorded twice; answers how many plays were new.
   */
  scrobble(
    userId: string,
    plays: readonly { songId: string; playedAt: Date }[],
  ): Promise<number | null>;
  /**
   * The listener's player `playerName` is playing `songId` from now on, until the song's
   * duration (or NOW_PLAYING_FALLBACK_MS) has passed. False when the song does not exist.
   */
  setNowPlaying(userId: string, playerName: string, songId: string): Promise<boolean>;
  /**
   * Tells `listener` of every song play from now on, after its write commits: started (POST
   * /api/plays) and each rise of its heard total (progress reports, plays recorded
   * afterwards). Register while the app is built; podcast episodes are not announced.
   */
  onSongPlays(listener: SongPlayListener): void;
  /** The listener's saved play queue, or null when none is saved. */
  playQueue(userId: string): Promise<PlayQueueRow | null>;
  /**
   * Saves the listener's play queue (changed now, by `changedBy`); an empty list clears it.
   * False when a song does not exist (nothing written).
   */
  savePlayQueue(
    userId: string,
    queue: {
      songIds: readonly string[];
      currentIndex: number | null;
      positionMs: number;
      changedBy: string;
    },
  ): Promise<boolean>;
};

export type { PlayQueueRow, SongPlay, SongPlayListener, SongPlayProgress };

/** How long a now-playing entry of a song of unknown length lasts. */
export const NOW_PLAYING_FALLBACK_MS = 10 * 60_000;

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
  const listeners: SongPlayListener[] = [];
  const listening = createListeningService({
    plays,
    stats: createStatsRepository(ctx.database.db),
    songsByIds: songs.songsByIds,
    episodesByIds: podcasts.episodesByIds,
    clock: ctx.clock,
    listeners,
    log: ctx.log,
  });
  const routes = listeningRoutes({ listening });
  const artistDays = createArtistDaysRepository(ctx.database.db);
  const players = createPlayersRepository(ctx.database.db);
  // Artists whose window this process has counted today: until the day changes their finished
  // days are final (a play is recorded at the clock's time), so the check is skipped.
  const counted = new Map<string, string>();
  return {
    name: 'listening',
    async artistDays(artistId, days) {
      const now = ctx.clock.now();
      const today = now.toISOString().slice(0, 10);
      const first = new Date(Date.parse(today) - (Math.max(1, days) - 1) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      if (counted.get(artistId) !== first) {
        await artistDays.rollUp(artistId, first, today, now);
        if (counted.size >= 100_000) counted.clear();
        counted.set(artistId, first);
      }
      return artistDays.read(artistId, first, today);
    },
    async scrobble(userId, list) {
      const recorded = await plays.scrobble(userId, list);
      if (!recorded) return null;
      await listening.announceRecorded(userId, recorded);
      return recorded.length;
    },
    onSongPlays: (listener) => void listeners.push(listener),
    setNowPlaying: (userId, playerName, songId) =>
      players.setNowPlaying(userId, playerName, songId, ctx.clock.now(), NOW_PLAYING_FALLBACK_MS),
    playQueue: (userId) => players.playQueue(userId),
    savePlayQueue: (userId, queue) =>
      players.savePlayQueue(userId, { ...queue, changedAt: ctx.clock.now() }),
    plugin: async (app) => {
      await app.register(routes, { prefix: '/api' });
      // Pending play counts and listener totals are folded in batches while the app runs.
      if (settings.foldSeconds > 0) app.addHook('onReady', async () => fold.start());
      app.addHook('onClose', async () => fold.stop());
    },
  };
}
