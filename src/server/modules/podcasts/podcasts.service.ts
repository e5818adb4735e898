import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import {
  podcastFields,
  type PodcastDetail,
  type PodcastFields,
  type PodcastShowDto,
} from '../../../contracts/podcasts.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  PODCAST_CATEGORIES,
  podcastLimits,
  podcastMessages,
  type PodcastCategory,
} from '../../../core/validation/podcast.rules.ts';
import type { IncomingPart } from '../../http/multipart-parts.ts';
import type { MediaUrls } from '../../media/media-dto.ts';
import { processCover, receiveCover } from '../../media/media-intake.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import type { EpisodesService } from './episodes.service.ts';
import { feedUrlOf, podcastGuidOf } from './feed-identity.ts';
import { keepField, parseFields, unexpectedFile } from '../../http/multipart-fields.ts';
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
  /** The URL clients get for a stored media URL: the media module's. */
  mediaUrl: MediaUrls;
};

export type PodcastsService = ReturnType<typeof createPodcastsService>;

/** PATCH: the same fields, each optional; still strict (unknown fields refused). */
const podcastPatch = podcastFields.partial();

/** The changes a form's fields make; an empty description clears it. */
function changesOf(fields: Partial<PodcastFields>): ShowPatch {
  const patch: ShowPatch = {};
  if (fields.title !== undefined) patch.title = fields.title;
  if (fields.description !== undefined) patch.description = fields.description || null;
  if (fields.language !== undefined) patch.language = fields.language;
  if (fields.category !== undefined) patch.category = fields.category;
  if (fields.explicit !== undefined) patch.explicit = fields.explicit === 'true';
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
    episode_count: row.episodeCount,
    feed_url: feedUrlOf(deps.publicUrl, row.id),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
  });

  /**
   * A show form's parts: text fields by the contract's schema (unknown or repeated fields
   * refused), and an optional `cover` image read into memory (≤ 5 MB, checked like a song's).
   */
  async function readForm<T>(
    parts: AsyncIterable<IncomingPart>,
    parse: (fields: Record<string, string>) => T,
  ): Promise<{ fields: T; cover: Buffer | null }> {
    const raw: Record<string, string> = {};
    let cover: Buffer | null = null;
    let coverSeen = false;
    for await (const part of parts) {
      if (part.kind === 'field') {
        keepField(raw, part.name, part.value);
        // Each field as it arrives: a bad one fails before the cover is read.
        parseFields(podcastPatch, { [part.name]: part.value });
        continue;
      }
      if (part.name !== 'cover' || coverSeen) throw unexpectedFile(part);
      coverSeen = true;
      cover = await receiveCover(part.stream, part.truncated);
    }
    // An empty part is a form whose cover input was left empty.
    return { fields: parse(raw), cover: cover && cover.length > 0 ? cover : null };
  }

  /** Decodes and re-encodes a cover (no metadata, ≤ 1000 px) and stores it. */
  async function storeCover(input: Buffer): Promise<{ url: string; key: string; object: string }> {
    const image = await processCover(input);
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

    async mine(creatorId: string): Promise<PodcastShowDto[]> {
      return (await shows.byCreator(creatorId)).map(toShowDto);
    },

    /** One show and its episodes (episode_number descending), with the caller's progress. */
    async detail(podcastId: string, userId: string): Promise<PodcastDetail> {
      const show = await shows.findById(podcastId);
      if (!show) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
      return { podcast: toShowDto(show), episodes: await deps.episodes.ofShow(show, userId) };
    },

    /**
     * A new show of the caller's. Its id is made here, so the feed URL and its podcast:guid
     * (UUIDv5 of that URL) are fixed in the insert and never change after.
     */
    async create(creatorId: string, parts: AsyncIterable<IncomingPart>): Promise<PodcastShowDto> {
      const { fields, cover } = await readForm(parts, (raw) =>
        // No title field at all is the same as an empty one: spec §5's message.
        parseFields(podcastFields, { title: '', ...raw }),
      );
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
      parts: AsyncIterable<IncomingPart>,
    ): Promise<PodcastShowDto> {
      await ownedShow(shows, userId, podcastId);
      const { fields, cover } = await readForm(parts, (raw) => parseFields(podcastPatch, raw));
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
