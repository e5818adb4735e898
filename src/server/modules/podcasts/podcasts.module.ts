import { notificationNotices } from '../../../core/validation/notification.rules.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { MediaModule } from '../media/media.module.ts';
import {
  createEpisodeMediaJob,
  enqueueEpisodeMedia,
  EPISODE_MEDIA_JOB,
} from './episode-media.job.ts';
import { createEpisodeMediaRepository } from './episode-media.repository.ts';
import { createEpisodeProgressRepository } from './episode-progress.repository.ts';
import { createEpisodesRepository } from './episodes.repository.ts';
import { createEpisodesService } from './episodes.service.ts';
import { createPodcastsRepository } from './podcasts.repository.ts';
import { podcastsRoutes } from './podcasts.routes.ts';
import { createPodcastsService } from './podcasts.service.ts';

/** An episode's media job, for episodes written outside this module (the demo seed). */
export { enqueueEpisodeMedia } from './episode-media.job.ts';
/** A show's public feed URL and its podcast:guid (the feed module and the demo seed). */
export { feedUrlOf, podcastGuidOf } from './feed-identity.ts';

/**
 * Podcast shows, episodes (through the media pipeline: renditions, loudness, waveform, as
 * songs) and listening progress (docs/decisions/0018), under /api.
 */
/** What other modules may ask of podcasts. */
export type PodcastsModule = FeatureModule & {
  /**
   * Gives a show made before feed_guid existed the guid its feed derives (the feed module, on
   * the first fetch); answers the guid it has now, which never changes once set.
   */
  fixFeedGuid(podcastId: string, guid: string): Promise<string | null>;
};

export type PodcastsSettings = {
  /** Where an upload waits while it is checked (media's uploadTempDir). */
  tempDir: string;
  /** MEDIA_WORKERS: media jobs this process runs at once, as many as ffmpeg runs. */
  mediaWorkers: number;
  /** PUBLIC_URL: a show's feed URL is absolute. */
  publicUrl: string;
};

export function createPodcastsModule(
  ctx: ModuleContext,
  {
    media: mediaModule,
    notifications,
    settings,
  }: {
    media: Pick<MediaModule, 'publicUrl'>;
    notifications: Pick<NotificationsModule, 'notifyFollowers'>;
    settings: PodcastsSettings;
  },
): PodcastsModule {
  const db = ctx.database.db;
  const media = createEpisodeMediaRepository(db);
  const mediaJob = createEpisodeMediaJob({
    rows: media,
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    tempDir: settings.tempDir,
    log: ctx.log,
  });
  ctx.jobs.register(EPISODE_MEDIA_JOB, mediaJob.run, {
    concurrency: settings.mediaWorkers,
    onDead: mediaJob.onDead,
  });
  const shows = createPodcastsRepository(db);
  const episodes = createEpisodesService({
    shows,
    episodes: createEpisodesRepository(db),
    media,
    progress: createEpisodeProgressRepository(db),
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    tempDir: settings.tempDir,
    log: ctx.log,
    clock: ctx.clock,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out.
    publicUrl: mediaModule.publicUrl,
    enqueueMedia: (episodeId, tx) => enqueueEpisodeMedia(ctx.jobs, episodeId, tx),
    announceRelease: (show, title, tx) =>
      notifications.notifyFollowers(
        show.creatorId,
        {
          ...notificationNotices.newRelease({
            artistId: show.creatorId,
            artist: show.creatorName,
            title,
            kind: 'episode',
          }),
          link: `/podcasts?show=${show.id}`,
        },
        tx,
      ),
  });
  const podcasts = createPodcastsService({
    shows,
    episodes,
    storage: ctx.storage,
    log: ctx.log,
    publicUrl: settings.publicUrl,
    mediaUrl: mediaModule.publicUrl,
  });
  const routes = podcastsRoutes({ podcasts, episodes });
  return {
    name: 'podcasts',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
    fixFeedGuid: (podcastId, guid) => shows.fixFeedGuid(podcastId, guid),
  };
}
