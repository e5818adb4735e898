import { notificationNotices } from '../../../core/validation/notification.rules.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { MediaModule } from '../media/media.module.ts';
import type { CrashPoint } from '../../storage/crash-point.ts';
import { createItunesProvider } from '../../providers/catalogue/itunes.provider.ts';
import { withAdmission } from './search-admission.ts';
import { withSearchCache } from './search-cache.ts';
import { createSongsRepository, type SongsRepository } from './songs.repository.ts';
import type { Clock } from '../../../core/clock.ts';
import { songsRoutes } from './songs.routes.ts';
import { createSongMediaRepository } from './song-media.repository.ts';
import { createSongMediaJob, enqueueSongMedia, SONG_MEDIA_JOB } from './song-media.job.ts';
import { createSongsService } from './songs.service.ts';

/** A song's media job, for songs written outside this module (the demo seed). */
export { enqueueSongMedia } from './song-media.job.ts';

/** What other modules may ask of the catalogue. */
export type SongsModule = FeatureModule & {
  /** Songs as the API sends them (signed media URLs), in the order of `ids`; missing ones left out. */
  songsByIds(ids: string[]): Promise<SongDto[]>;
};

/**
 * The songs repository as the service reads it (ADR 0011): search answers cached, and
 * admission under the cache, so that a cached answer never waits for a place.
 */
export function readsForSearch(
  repository: SongsRepository,
  options: { ttlMs: number; limit: number; clock: Clock },
): SongsRepository {
  return withSearchCache(
    withAdmission(repository, { limit: options.limit, methods: ['searchForgivingTypos'] }),
    {
      ttlMs: options.ttlMs,
      maxEntries: 1000,
      clock: options.clock,
      // Podcasts are written elsewhere (no invalidation here), so their search is not kept.
      cached: ['searchForgivingTypos'],
      reads: [
        'search',
        'correctTypos',
        'findById',
        'findByIds',
        'displayNameOf',
        'newest',
        'mostPlayed',
        'byGenre',
        'searchPodcasts',
      ],
    },
  );
}

export type SongsSettings = {
  /** Where an upload waits while it is checked (media's uploadTempDir). */
  tempDir: string;
  /** MEDIA_WORKERS: media jobs this process runs at once, as many as ffmpeg runs. */
  mediaWorkers: number;
  /** SEARCH_CACHE_SECONDS and SEARCH_CONCURRENCY (ADR 0011 "Admission"). */
  search: { cacheSeconds: number; concurrency: number };
  /** CATALOGUE_*: the external catalogue asked when the own search finds nothing. */
  catalogue: { url: string; allowPrivate: boolean; timeoutMs: number };
};

/**
 * The catalogue: upload, edit, delete, home, browse, search (spec §2, §5), under /api; and
 * each song's media job (renditions, loudness, waveform: docs/decisions/0014).
 */
export function createSongsModule(
  ctx: ModuleContext,
  {
    media: mediaModule,
    notifications,
    settings,
    crash,
  }: {
    media: Pick<MediaModule, 'publicUrl'>;
    notifications: Pick<NotificationsModule, 'notifyFollowers'>;
    settings: SongsSettings;
    /** Where crash tests stop the process between an upload's or a media job's steps. */
    crash?: CrashPoint;
  },
): SongsModule {
  // The app's one ffmpeg: upload checks and media jobs share its MEDIA_WORKERS cap.
  const { ffmpeg } = ctx;
  const media = createSongMediaRepository(ctx.database.db);
  const mediaJob = createSongMediaJob({
    rows: media,
    storage: ctx.storage,
    ffmpeg,
    tempDir: settings.tempDir,
    log: ctx.log,
    crash,
  });
  ctx.jobs.register(SONG_MEDIA_JOB, mediaJob.run, {
    concurrency: settings.mediaWorkers,
    onDead: mediaJob.onDead,
  });
  const songs = createSongsService({
    songs: readsForSearch(createSongsRepository(ctx.database.db), {
      ttlMs: settings.search.cacheSeconds * 1000,
      limit: settings.search.concurrency,
      clock: ctx.clock,
    }),
    storage: ctx.storage,
    catalogue: createItunesProvider({
      baseUrl: settings.catalogue.url,
      allowPrivate: settings.catalogue.allowPrivate,
      timeoutMs: settings.catalogue.timeoutMs,
      log: ctx.log,
      clock: ctx.clock,
    }),
    tempDir: settings.tempDir,
    ffmpeg,
    log: ctx.log,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out, so it never
    // goes stale in the database.
    publicUrl: mediaModule.publicUrl,
    crash,
    media,
    enqueueMedia: (songId, tx) => enqueueSongMedia(ctx.jobs, songId, tx),
    announceRelease: (artistId, { artist, title }, tx) =>
      notifications.notifyFollowers(
        artistId,
        notificationNotices.newRelease({ artistId, artist, title, kind: 'song' }),
        tx,
      ),
  });
  const routes = songsRoutes({ songs, clock: ctx.clock });
  return {
    name: 'songs',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
    songsByIds: (ids) => songs.byIds(ids),
  };
}
