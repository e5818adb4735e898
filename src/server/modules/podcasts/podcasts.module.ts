import { notificationNotices } from '../../../core/validation/notification.rules.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { PodcastDto } from '../../../contracts/songs.contract.ts';
import {
  episodeProgressBody,
  type EpisodeDto,
  type EpisodeProgressDto,
  type PodcastShowDto,
} from '../../../contracts/podcasts.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import {
  storedFileOf,
  type MediaModule,
  type StoredAudio,
  type StoredFile,
} from '../media/media.module.ts';
import { createEpisodeProgressRepository } from './episode-progress.repository.ts';
import {
  createEpisodeMediaRepository,
  createEpisodesRepository,
  type EpisodeRow,
  type ProgressRow,
} from './episodes.repository.ts';
import { createEpisodesService } from './episodes.service.ts';
import { createPodcastsRepository } from './podcasts.repository.ts';
import { podcastsRoutes } from './podcasts.routes.ts';
import { createPodcastsService } from './podcasts.service.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { enqueueMediaJob, type MediaJobKind } from '../../media/media-job.ts';

/** An episode's media job: a song's (ADR 0018) on episodes, in the podcasts bucket. */
const EPISODE_MEDIA: MediaJobKind = {
  name: 'podcasts.episode-media',
  idField: 'episodeId',
  bucket: 'podcasts',
  label: 'episode',
};

/** An episode's media job, for episodes written outside this module (the demo seed). */
export const enqueueEpisodeMedia = (jobs: JobQueue, episodeId: string, tx?: Db) =>
  enqueueMediaJob(jobs, EPISODE_MEDIA, episodeId, tx);
/** A show's public feed URL and its podcast:guid (the feed module and the demo seed). */
export { feedUrlOf, podcastGuidOf } from './feed-identity.ts';

/** An episode as other clients list it (the Subsonic API): its row's facts, no URLs. */
export type EpisodeListing = {
  id: string;
  podcastId: string;
  title: string;
  description: string | null;
  publishedAt: Date;
  durationMs: number | null;
  /** The kept original's type and size (null for rows written before they were kept). */
  audioMime: string | null;
  audioBytes: number | null;
  /** The original's storage key: its file name's extension is the suffix. */
  audioKey: string | null;
};

/** Where a listener is in an episode (the web player's progress). */
export type EpisodePlace = { positionMs: number; completed: boolean; updatedAt: Date };

const toListing = (row: EpisodeRow): EpisodeListing => ({
  id: row.id,
  podcastId: row.podcastId,
  title: row.title,
  description: row.description,
  publishedAt: row.publishedAt,
  durationMs: row.durationMs,
  audioMime: row.audioMime,
  audioBytes: row.audioBytes,
  audioKey: row.audioKey,
});
const toPlace = (row: ProgressRow): EpisodePlace => ({
  positionMs: row.positionMs,
  completed: row.completed,
  updatedAt: row.updatedAt,
});

/** What other modules may ask of podcasts. */
export type PodcastsModule = FeatureModule & {
  /**
   * Gives a show made before feed_guid existed the guid its feed derives (the feed module, on
   * the first fetch); answers the guid it has now, which never changes once set.
   */
  fixFeedGuid(podcastId: string, guid: string): Promise<string | null>;
  /** Spec §7: shows whose title or description contains `query`, best match first. */
  searchShows(query: string, limit: number): Promise<PodcastDto[]>;
  /** Episodes by id, in the order asked, with `userId`'s progress (recently played). */
  episodesByIds(ids: string[], userId: string): Promise<EpisodeDto[]>;

  // For other clients of the same shows (the Subsonic API). Canto has no subscriptions: a
  // listener's shows are every show, as the web's Podcasts page lists them.

  /** Every show, newest first (GET /api/podcasts). */
  listShows(): Promise<PodcastShowDto[]>;
  /** One show; null when there is none. */
  showById(podcastId: string): Promise<PodcastShowDto | null>;
  /** The shows' episodes, each show's by episode number descending. */
  episodesOfShows(podcastIds: string[]): Promise<EpisodeListing[]>;
  /** The `limit` most recently published episodes of all shows. */
  newestEpisodes(limit: number): Promise<EpisodeListing[]>;
  /** Episodes `userId` is part-way through (position past 0), most recently moved first. */
  startedEpisodes(userId: string): Promise<Array<{ episode: EpisodeListing; place: EpisodePlace }>>;
  /** `userId`'s place in an episode; null when never started. */
  episodePlace(userId: string, episodeId: string): Promise<EpisodePlace | null>;
  /**
   * Records `userId`'s place as the web player's PUT /api/me/episode-progress does, by its
   * rules (clamped to the episode, played near the end and stays played); AppError
   * validation_failed with the web's message for a bad position, not_found for no episode.
   */
  saveEpisodePlace(
    userId: string,
    episodeId: string,
    positionSeconds: number,
  ): Promise<EpisodeProgressDto>;
  /**
   * An episode's stored audio (Subsonic's stream and download): the original and its
   * renditions, by bitrate ascending (none while processing). Null for no episode or audio
   * that is not a stored file.
   */
  episodeAudio(episodeId: string): Promise<StoredAudio | null>;
  /** An episode whose media is ready (what a link to it shows); null for any other or none. */
  readyEpisode(episodeId: string): Promise<EpisodeListing | null>;
  /** The show's stored cover, of the show or of an episode's show (Subsonic's getCoverArt). */
  showCover(of: { podcastId: string } | { episodeId: string }): Promise<StoredFile | null>;
};

export type PodcastsSettings = {
  /** PUBLIC_URL: a show's feed URL is absolute. */
  publicUrl: string;
  /** Whether PUBLIC_URL is set: the show page warns its creator when not. */
  publicUrlSet: boolean;
};

/**
 * Podcast shows, episodes (through the media pipeline: renditions, loudness, waveform, as
 * songs) and listening progress (docs/decisions/0018), under /api.
 */
export function createPodcastsModule(
  ctx: ModuleContext,
  {
    media: mediaModule,
    notifications,
    settings,
  }: {
    media: Pick<MediaModule, 'publicUrl' | 'registerJob' | 'tempDir'>;
    notifications: Pick<NotificationsModule, 'notifyFollowers'>;
    settings: PodcastsSettings;
  },
): PodcastsModule {
  const db = ctx.database.db;
  const media = createEpisodeMediaRepository(db);
  const shows = createPodcastsRepository(db);
  const episodeRows = createEpisodesRepository(db);
  const episodes = createEpisodesService({
    shows,
    episodes: episodeRows,
    media,
    progress: createEpisodeProgressRepository(db),
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    log: ctx.log,
    clock: ctx.clock,
    // Rows keep `/media/<bucket>/<key>`; the signature is added on the way out.
    publicUrl: mediaModule.publicUrl,
    enqueueMedia: mediaModule.registerJob(EPISODE_MEDIA, media),
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
    publicUrlSet: settings.publicUrlSet,
    mediaUrl: mediaModule.publicUrl,
  });
  const routes = podcastsRoutes({ podcasts, episodes, tempDir: mediaModule.tempDir });
  return {
    name: 'podcasts',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
    searchShows: podcasts.search,
    episodesByIds: episodes.byIds,
    fixFeedGuid: (podcastId, guid) => shows.fixFeedGuid(podcastId, guid),
    listShows: podcasts.all,
    showById: podcasts.one,
    episodesOfShows: async (ids) => (await episodeRows.ofShows(ids)).map(toListing),
    newestEpisodes: async (limit) => (await episodeRows.newest(limit)).map(toListing),
    startedEpisodes: async (userId) =>
      (await episodeRows.startedBy(userId)).map((r) => ({
        episode: toListing(r.episode),
        place: toPlace(r.progress),
      })),
    episodePlace: async (userId, episodeId) => {
      const row = await episodeRows.progressOf(userId, episodeId);
      return row && toPlace(row);
    },
    saveEpisodePlace: async (userId, episodeId, positionSeconds) => {
      const body = episodeProgressBody.safeParse({ position: positionSeconds });
      if (!body.success)
        throw new AppError(
          ErrorCode.validation,
          body.error.issues[0]?.message ?? 'Invalid position',
        );
      return episodes.saveProgress(userId, episodeId, body.data);
    },
    async episodeAudio(episodeId) {
      const row = await episodeRows.findById(episodeId);
      const original = row && storedFileOf(row.audioUrl);
      if (!row || !original) return null;
      const show = await shows.findById(row.podcastId);
      const renditions = await media.renditionsOf([row.id]);
      return {
        title: row.title,
        artist: show?.title ?? null,
        original,
        renditions: renditions.flatMap((r) => {
          const file = storedFileOf(r.fileUrl);
          return file
            ? [{ ...file, format: r.format, codec: r.codec, bitrateKbps: r.bitrateKbps }]
            : [];
        }),
      };
    },
    async readyEpisode(episodeId) {
      if (!isUuid(episodeId)) return null;
      const row = await episodeRows.findById(episodeId.toLowerCase());
      return row?.mediaStatus === 'ready' ? toListing(row) : null;
    },
    async showCover(of) {
      let podcastId: string;
      if ('episodeId' in of) {
        const row = await episodeRows.findById(of.episodeId);
        if (!row) return null;
        podcastId = row.podcastId;
      } else podcastId = of.podcastId;
      const show = await shows.findById(podcastId);
      return storedFileOf(show?.coverArtUrl ?? null);
    },
  };
}
