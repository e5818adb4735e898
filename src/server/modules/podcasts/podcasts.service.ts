import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type PodcastDetail,
  type PodcastFields,
  type PodcastShowDto,
} from '../../../contracts/podcasts.contract.ts';
import type { PodcastDto } from '../../../contracts/songs.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  PODCAST_CATEGORIES,
  podcastLimits,
  podcastMessages,
  type PodcastCategory,
} from '../../../core/validation/podcast.rules.ts';
import type { MediaUrls } from '../../media/media-dto.ts';
import { processImage, type ReceivedImage } from '../../media/media-intake.ts';
import type { IncomingUpload } from '../../media/upload-form.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import type { EpisodesService } from './episodes.service.ts';
import { feedUrlOf, podcastGuidOf } from './feed-identity.ts';
import type { showEditForm, showForm } from './podcasts.forms.ts';
import type { PodcastsRepository, ShowPatch, ShowRow } from './podcasts.repository.ts';
import { ownedShow } from './show-access.ts';
import type { Log } from '../../log.ts';

export type PodcastsServiceDeps = {
  shows: PodcastsRepository;
  episodes: Pick<EpisodesService, 'ofShow'>;
  storage: Storage;
  log: Log;
  /** PUBLIC_URL (no trailing slash): feed URLs are absolute. */
  publicUrl: string;
  publicUrlSet: boolean;
  /** The URL clients get for a stored media URL: the media module's. */
  mediaUrl: MediaUrls;
};

export type PodcastsService = ReturnType<typeof createPodcastsService>;

/** The changes a form's fields make; an empty description clears it. */
function changesOf(fields: Partial<PodcastFields>): ShowPatch {
  const patch: ShowPatch = {};
  if (fields.title !== undefined) patch.title = fields.title;
  if (fields.description !== undefined) patch.description = fields.description || null;
  if (fields.language !== undefined) patch.language = fields.language;
  if (fields.category !== undefined) patch.category = fields.category;
  if (fields.explicit !== undefined) patch.explicit = fields.explicit === 'true';
  if (fields.owner_email !== undefined) patch.ownerEmail = fields.owner_email || null;
  return patch;
}

/** Podcast shows: the list, one show with its episodes, create, edit, delete. */
export function createPodcastsService(deps: PodcastsServiceDeps) {
  const { shows, storage, log } = deps;
  const discard = (objects: Array<[Bucket, string]>) => discardStored(storage, log, objects);

  const toShowDto = (row: ShowRow): PodcastShowDto => ({
    id: row.id,
    creator_id: row.creatorId,
    creator_name: row.creatorName,
    title: row.title,
    description: row.description,
    cover_art_url: deps.mediaUrl(row.coverArtUrl),
    language: row.language,
    // Rows written by other means may hold any text (the column only bounds its length).
    category: (PODCAST_CATEGORIES as readonly string[]).includes(row.category)
      ? (row.category as PodcastCategory)
      : 'Music',
    explicit: row.explicit,
    owner_email: row.ownerEmail,
    episode_count: row.episodeCount,
    feed_url: feedUrlOf(deps.publicUrl, row.id),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
  });

  /** Decodes and re-encodes a cover (no metadata, ≤ 1000 px) and stores it. */
  async function storeCover(
    input: ReceivedImage,
  ): Promise<{ url: string; key: string; object: string }> {
    const image = await processImage(input);
    const object = newKey('webp');
    await storage.put('cover-art', object, Readable.from([image]), {
      contentType: MEDIA_TYPES.webp,
      maxBytes: podcastLimits.coverMaxBytes * 4,
    });
    return { url: `/media/cover-art/${object}`, key: `cover-art/${object}`, object };
  }

  return {
    async all(): Promise<PodcastShowDto[]> {
      return (await shows.all()).map(toShowDto);
    },

    /** One show as the list shows it; null when there is none. */
    async one(podcastId: string): Promise<PodcastShowDto | null> {
      const row = await shows.findById(podcastId);
      return row && toShowDto(row);
    },

    /** Spec §7 search of type podcasts: shows whose title or description contains `query`. */
    async search(query: string, limit: number): Promise<PodcastDto[]> {
      return (await shows.search(query, limit)).map((row) => ({
        id: row.id,
        creator_id: row.creatorId,
        title: row.title,
        description: row.description,
        cover_art_url: deps.mediaUrl(row.coverArtUrl),
        created_at: row.createdAt.toISOString(),
      }));
    },

    async mine(creatorId: string): Promise<PodcastShowDto[]> {
      return (await shows.byCreator(creatorId)).map(toShowDto);
    },

    /** One show and its episodes (episode_number descending), with the caller's progress. */
    async detail(podcastId: string, userId: string): Promise<PodcastDetail> {
      const show = await shows.findById(podcastId);
      if (!show) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
      return {
        podcast: toShowDto(show),
        episodes: await deps.episodes.ofShow(show, userId),
        public_url_set: deps.publicUrlSet,
      };
    },

    /**
     * A new show of the caller's. Its id is made here, so the feed URL and its podcast:guid
     * (UUIDv5 of that URL) are fixed in the insert and never change after.
     */
    async create(
      creatorId: string,
      upload: IncomingUpload<typeof showForm>,
    ): Promise<PodcastShowDto> {
      const {
        fields,
        files: { cover },
      } = await upload.read();
      const id = crypto.randomUUID();
      const stored = cover ? await storeCover(cover) : null;
      try {
        const row = await shows.insert({
          ...changesOf(fields),
          id,
          creatorId,
          title: fields.title,
          coverArtUrl: stored?.url ?? null,
          coverArtKey: stored?.key ?? null,
          feedGuid: podcastGuidOf(feedUrlOf(deps.publicUrl, id)),
        });
        return toShowDto(row);
      } catch (error) {
        if (stored) await discard([['cover-art', stored.object]]);
        throw error;
      }
    },

    /**
     * Deletes a show (its creator only) and every episode of it, in one transaction; then,
     * once that has committed, every file the rows named (cover, and each episode's original,
     * renditions and waveform). Files go last: if the delete fails nothing is lost, and a
     * file left by a failed removal is swept by the media reconciler.
     */
    async remove(userId: string, podcastId: string): Promise<void> {
      await ownedShow(shows, userId, podcastId);
      const deleted = await shows.delete(podcastId);
      if (!deleted) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
      const { cover, audio } = deleted.keys;
      await discard([
        ...(cover ? [locateStored(cover, 'cover-art')] : []),
        ...audio.map((k) => locateStored(k, 'podcasts')),
      ]);
    },

    /**
     * Edits a show (its creator only, checked before the body is read). A new cover is
     * stored first and the old one deleted once the row points at the new one.
     */
    async update(
      userId: string,
      podcastId: string,
      upload: IncomingUpload<typeof showEditForm>,
    ): Promise<PodcastShowDto> {
      await ownedShow(shows, userId, podcastId);
      const {
        fields,
        files: { cover },
      } = await upload.read();
      const stored = cover ? await storeCover(cover) : null;
      let result;
      try {
        result = await shows.update(podcastId, changesOf(fields), stored ?? undefined);
      } catch (error) {
        if (stored) await discard([['cover-art', stored.object]]);
        throw error;
      }
      if (!result) {
        if (stored) await discard([['cover-art', stored.object]]);
        throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
      }
      if (result.previousCoverKey)
        await discard([locateStored(result.previousCoverKey, 'cover-art')]);
      return toShowDto(result.row);
    },
  };
}
