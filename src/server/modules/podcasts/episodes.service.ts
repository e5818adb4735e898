import fs from 'node:fs';
import type {
  EpisodeDto,
  EpisodeProgressBody,
  EpisodeProgressDto,
} from '../../../contracts/podcasts.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isPlayed, storedPositionMs } from '../../../core/podcasts/episode-progress.ts';
import { podcastLimits, podcastMessages } from '../../../core/validation/podcast.rules.ts';
import type { Db } from '../../db/client.ts';
import type { Ffmpeg } from '../../media/ffmpeg.ts';
import { loudnessDto, renditionDtos, type MediaUrls } from '../../media/media-dto.ts';
import { probeAudio } from '../../media/media-intake.ts';
import type { IncomingUpload } from '../../media/upload-form.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import type { EpisodeProgressRepository } from './episode-progress.repository.ts';
import type {
  EpisodeMediaRepository,
  EpisodeRenditionRow,
  EpisodeRow,
  EpisodesRepository,
  ProgressRow,
} from './episodes.repository.ts';
import type { episodeForm } from './podcasts.forms.ts';
import type { PodcastsRepository, ShowRow } from './podcasts.repository.ts';
import { ownedShow } from './show-access.ts';
import type { Log } from '../../log.ts';

export type EpisodesServiceDeps = {
  shows: Pick<PodcastsRepository, 'findById'>;
  episodes: EpisodesRepository;
  media: Pick<EpisodeMediaRepository, 'renditionsOf' | 'reprocess'>;
  progress: EpisodeProgressRepository;
  storage: Storage;
  /** Measures uploaded audio by decoding it (the app's one ffmpeg). */
  ffmpeg: Ffmpeg;
  log: Log;
  clock: Clock;
  /** The URL clients get for a stored media URL (signed for audio): the media module's. */
  publicUrl: MediaUrls;
  /** Enqueues the episode's media job in `tx`, the transaction that writes its row. */
  enqueueMedia: (episodeId: string, tx: Db) => Promise<unknown>;
  /** new_release to the creator's followers, in `tx` (the notifications module). */
  announceRelease: (
    show: { id: string; creatorId: string; creatorName: string | null },
    episodeTitle: string,
    tx: Db,
  ) => Promise<unknown>;
};

export type EpisodesService = ReturnType<typeof createEpisodesService>;

function toProgressDto(row: ProgressRow): EpisodeProgressDto {
  return {
    position: row.positionMs / 1000,
    completed: row.completed,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** An episode as the API sends it: signed media URLs, the show's title and cover. */
export function toEpisodeDto(
  row: EpisodeRow,
  show: Pick<ShowRow, 'title' | 'coverArtUrl'>,
  publicUrl: MediaUrls,
  renditions: EpisodeRenditionRow[],
  progress: ProgressRow | null,
): EpisodeDto {
  return {
    id: row.id,
    podcast_id: row.podcastId,
    podcast_title: show.title,
    title: row.title,
    description: row.description,
    audio_url: publicUrl(row.audioUrl)!,
    duration: row.durationMs === null ? null : row.durationMs / 1000,
    episode_number: row.episodeNumber,
    published_at: row.publishedAt.toISOString(),
    cover_art_url: publicUrl(show.coverArtUrl),
    status: row.mediaStatus,
    renditions: renditionDtos(renditions, publicUrl),
    loudness: loudnessDto(row.loudnessLufs, row.truePeakDbtp),
    waveform_url: publicUrl(row.waveformUrl),
    progress: progress && toProgressDto(progress),
  };
}

/** Episodes: upload through the media pipeline, the list of a show, and listening progress. */
export function createEpisodesService(deps: EpisodesServiceDeps) {
  const { episodes, storage, log } = deps;

  /** The episode and its show, if `userId` created the show (404 / 403 otherwise). */
  async function managedEpisode(userId: string, episodeId: string) {
    const episode = await episodes.findById(episodeId);
    if (!episode) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
    const show = await ownedShow(deps.shows, userId, episode.podcastId);
    return { episode, show };
  }

  async function renditionsByEpisode(rows: EpisodeRow[]) {
    const ready = rows.filter((r) => r.mediaStatus === 'ready').map((r) => r.id);
    const byEpisode = new Map<string, EpisodeRenditionRow[]>();
    for (const r of await deps.media.renditionsOf(ready))
      byEpisode.set(r.episodeId, [...(byEpisode.get(r.episodeId) ?? []), r]);
    return byEpisode;
  }

  return {
    /** A show's episodes, episode_number descending, with `userId`'s progress in each. */
    async ofShow(show: ShowRow, userId: string): Promise<EpisodeDto[]> {
      const rows = await episodes.ofShow(show.id, userId);
      const renditions = await renditionsByEpisode(rows.map((r) => r.episode));
      return rows.map(({ episode, progress }) =>
        toEpisodeDto(episode, show, deps.publicUrl, renditions.get(episode.id) ?? [], progress),
      );
    },

    /** Episodes by id, in the order asked (ids of no episode left out), with `userId`'s progress. */
    async byIds(ids: string[], userId: string): Promise<EpisodeDto[]> {
      const rows = await episodes.byIds(ids, userId);
      const renditions = await renditionsByEpisode(rows.map((r) => r.episode));
      const byId = new Map(
        rows.map(({ episode, progress, show }) => [
          episode.id,
          toEpisodeDto(episode, show, deps.publicUrl, renditions.get(episode.id) ?? [], progress),
        ]),
      );
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /**
     * Spec §5 episode upload, all or nothing: the show must be the caller's (checked before
     * the body is read); the form (podcasts.forms.ts) checks the fields as they arrive and
     * streams the audio (declared audio/*) to a temp file, counted and sniffed; here it is
     * parsed and decoded like a song's, stored in the podcasts bucket, and the row is written
     * with its media job in one transaction. Any failure deletes what was stored; the route
     * removes the temp file.
     */
    async upload(
      userId: string,
      podcastId: string,
      upload: IncomingUpload<typeof episodeForm>,
    ): Promise<EpisodeDto> {
      const show = await ownedShow(deps.shows, userId, podcastId);
      const { fields, files } = await upload.read();
      const { audio } = files;
      const stored: Array<[Bucket, string]> = [];
      try {
        const facts = await probeAudio(audio, deps.ffmpeg, log);

        const key = newKey(facts.extension);
        const mime = MEDIA_TYPES[facts.extension];
        await storage.put('podcasts', key, fs.createReadStream(audio.path), {
          contentType: mime,
          maxBytes: podcastLimits.audioMaxBytes,
        });
        stored.push(['podcasts', key]);
        const row = await episodes.insert(
          {
            podcastId: show.id,
            title: fields.title,
            description: fields.description || null,
            audioUrl: `/media/podcasts/${key}`,
            audioKey: `podcasts/${key}`,
            audioBytes: audio.size,
            audioMime: mime,
            durationMs: facts.durationMs,
            episodeNumber: fields.episode_number ?? 1,
            // Listeners play the original until the renditions exist (docs/decisions/0014).
            mediaStatus: 'processing',
          },
          // The job and the followers' notices commit with the row.
          async (episode, tx) => {
            await deps.enqueueMedia(episode.id, tx);
            await deps.announceRelease(show, episode.title, tx);
          },
        );
        // Its show was deleted while the file came in: nothing written, the file goes.
        if (!row) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
        return toEpisodeDto(row, show, deps.publicUrl, [], null);
      } catch (error) {
        await discardStored(storage, log, stored);
        throw error;
      }
    },

    /**
     * Deletes an episode (its show's creator only): the row first, with its renditions and
     * listeners' progress, then, once that has committed, its files (original, renditions,
     * waveform). A file without a row is garbage the reconciler would sweep; a row without
     * its file would be a broken episode. A media job still queued finds no row and stops.
     */
    async remove(userId: string, episodeId: string): Promise<void> {
      await managedEpisode(userId, episodeId);
      const deleted = await episodes.delete(episodeId);
      if (!deleted) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      const { row, renditionKeys } = deleted;
      const keys = [row.audioKey, row.waveformKey, ...renditionKeys];
      await discardStored(
        storage,
        log,
        keys.flatMap((k) => (k ? [locateStored(k, 'podcasts')] : [])),
      );
    },

    /**
     * Runs an episode's media job again after it failed for good (its show's creator only),
     * as songs' reprocess does. 409 unless the episode's status is 'failed': a processing
     * episode has a job already; a ready one needs none.
     */
    async reprocess(userId: string, episodeId: string): Promise<EpisodeDto> {
      const { episode, show } = await managedEpisode(userId, episodeId);
      const row = await deps.media.reprocess(episodeId, (tx) => deps.enqueueMedia(episodeId, tx));
      if (!row)
        throw new AppError(
          ErrorCode.conflict,
          episode.mediaStatus === 'processing'
            ? podcastMessages.episodeStillProcessing
            : podcastMessages.episodeNotFailed,
          { status: episode.mediaStatus },
        );
      return toEpisodeDto(row, show, deps.publicUrl, [], null);
    },

    /**
     * Where the listener is, kept so another device resumes there. The
     * position is clamped to the episode; it counts as played when the client says so or
     * when it is near the end (core/podcasts/episode-progress.ts), and stays played.
     */
    async saveProgress(
      userId: string,
      episodeId: string,
      body: EpisodeProgressBody,
    ): Promise<EpisodeProgressDto> {
      const episode = await episodes.findById(episodeId);
      if (!episode) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      const positionMs = storedPositionMs(body.position, episode.durationMs);
      const row = await deps.progress.save({
        userId,
        episodeId,
        positionMs,
        completed: body.completed === true || isPlayed(positionMs, episode.durationMs),
        at: deps.clock.now(),
      });
      if (!row) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      return toProgressDto(row);
    },
  };
}
