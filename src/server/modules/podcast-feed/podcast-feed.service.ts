import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { podcastMessages } from '../../../core/validation/podcast.rules.ts';
import {
  decideRange,
  ifRangeMatches,
  noneMatch,
  notModifiedSince,
} from '../../http/byte-ranges.ts';
import {
  isBucket,
  isValidKey,
  storedLocation,
  type Bucket,
  type ByteRange,
  type Storage,
} from '../../storage/storage.ts';
import { locateStored } from '../../storage/stored-objects.ts';
import type { MediaOffload } from '../media/media.module.ts';
import { feedUrlOf, podcastGuidOf, type PodcastsModule } from '../podcasts/podcasts.module.ts';
import { squareJpeg } from '../../media/media-intake.ts';
import { artworkUrlOf, episodeAudioUrlOf, showPageUrlOf } from './feed-urls.ts';
import { feedAudioOf, type FeedAudio } from './feed-audio.ts';
import { renderRssFeed, type FeedItem } from './feed-xml.ts';
import type { FeedEpisodeRow, PodcastFeedRepository } from './podcast-feed.repository.ts';

export type PodcastFeedService = ReturnType<typeof createPodcastFeedService>;

export type AudioRequest = {
  method: 'GET' | 'HEAD';
  /** Who asks, as the guidelines tell listeners apart: the client's IP and user agent. */
  client: { ip: string; userAgent: string };
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
};

export type AudioAnswer =
  | { kind: 'redirect'; location: string }
  | { kind: 'not-modified'; etag: string; lastModified: Date }
  | { kind: 'unsatisfiable'; size: number }
  | {
      kind: 'bytes';
      contentType: string;
      size: number;
      etag: string;
      lastModified: Date;
      /** The inclusive range sent (206), or undefined for the whole file (200). */
      part: ByteRange | undefined;
      /** Null for HEAD. */
      body: Readable | null;
    };

/** The web app's square 1400 px JPEG (src/web/public) for shows without a cover. */
export const DEFAULT_COVER_PATH = '/podcast-cover.jpg';
/** Apple's directory wants square artwork of 1400 to 3000 px; covers are stored at most 1000. */
export const ARTWORK_SIDE = 1400;

/** A strong entity tag naming `content` (a feed's XML, the cover an artwork is made from). */
const entityTag = (content: string) =>
  `"${crypto.createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;

/** Where a show's cover is stored, if it is a raster image of ours (no SVG: demo shows). */
function coverLocation(coverArtUrl: string | null): { bucket: Bucket; key: string } | null {
  const location = storedLocation(coverArtUrl);
  return location && isValidKey(location.key) && !location.key.endsWith('.svg') ? location : null;
}

// iOS's player asks for the first two bytes before the real request: a probe, not a
// download (the IAB podcast measurement guidelines leave `bytes=0-1` out too).
const PROBE_LAST_BYTE = 1;

/** Where an episode's audio is stored (`<bucket>/<key>`, or a bare key of older rows), if ours. */
function audioLocation(stored: string | null): { bucket: Bucket; key: string } | null {
  if (!stored) return null;
  const [bucket, key] = locateStored(stored, 'podcasts');
  return isBucket(bucket) && isValidKey(key) ? { bucket, key } : null;
}

/**
 * Whether a request serving `part` of a file of `size` bytes is a download: it starts at the
 * first byte (or asks no range) and is more than the two-byte probe.
 */
export function countsAsDownload(part: ByteRange | undefined, size: number): boolean {
  if (!part) return true;
  return part.start === 0 && (part.end > PROBE_LAST_BYTE || part.end === size - 1);
}

/**
 * Each show's public RSS feed and its episodes' public enclosure URLs
 * (docs/decisions/0019). Both are read without a session: podcast apps fetch the feed and
 * download episodes later, from anywhere.
 */
export function createPodcastFeedService(deps: {
  feeds: PodcastFeedRepository;
  /** The podcasts module's: a show's feed_guid is written there, once. */
  fixFeedGuid: PodcastsModule['fixFeedGuid'];
  storage: Storage;
  /** env.publicUrl: every URL in the feed is absolute. */
  publicUrl: string;
  /** The media module's signer: `/media/podcasts/<key>` → a signed, expiring URL. */
  mediaUrl: (stored: string) => string;
  /** Who sends media bytes (docs/decisions/0010): Node, nginx or the store. */
  offload: MediaOffload;
  /** The stored stand-in for a client's IP and user agent (security/pseudonym.ts). */
  listenerOf: (ip: string, userAgent: string) => string;
  clock: Clock;
}) {
  const { feeds, storage, publicUrl } = deps;
  /** One download per listener per UTC day (ADR 0019). */
  const countDownload = (episodeId: string, { ip, userAgent }: AudioRequest['client']) =>
    feeds.countDownload(
      episodeId,
      deps.listenerOf(ip, userAgent),
      deps.clock.now().toISOString().slice(0, 10),
    );
  const absolute = (url: string) => (url.startsWith('/') ? `${publicUrl}${url}` : url);

  /**
   * Podcast apps and directories read JPEG and PNG; Apple's wants them square and 1400 px or
   * more: a cover of ours is served so at `artworkUrlOf`. None reads an SVG (demo shows): those
   * get the app's own square JPEG. A cover elsewhere (a URL of another site) is named as is.
   */
  const imageOf = (podcastId: string, coverArtUrl: string | null) =>
    coverLocation(coverArtUrl)
      ? artworkUrlOf(publicUrl, podcastId)
      : absolute(coverArtUrl && !coverArtUrl.startsWith('/') ? coverArtUrl : DEFAULT_COVER_PATH);

  /** The file an episode's enclosure is (feed-audio.ts), where it is stored, if any. */
  const enclosedOf = (row: {
    audioKey: string | null;
    audioBytes: number | null;
    audioMime: string | null;
    aacKey: string | null;
    aacBytes: number | null;
  }): { file: FeedAudio; bucket: Bucket; key: string } | null => {
    if (!row.audioKey || !audioLocation(row.audioKey)) return null;
    const file = feedAudioOf({
      original: { stored: row.audioKey, bytes: row.audioBytes, mime: row.audioMime },
      aac: row.aacKey && row.aacBytes !== null ? { stored: row.aacKey, bytes: row.aacBytes } : null,
    });
    const location = file && audioLocation(file.stored);
    return file && location ? { file, ...location } : null;
  };

  async function itemOf(row: FeedEpisodeRow): Promise<FeedItem | null> {
    const enclosed = enclosedOf(row);
    if (!enclosed) return null;
    const { file } = enclosed;
    // Rows written before the upload recorded size: read it off the stored file.
    const length = file.bytes ?? (await storage.stat(enclosed.bucket, enclosed.key))?.size;
    // An episode whose file is gone has nothing to enclose.
    if (length === undefined) return null;
    return {
      guid: row.id,
      title: row.title,
      description: row.description,
      enclosure: {
        url: episodeAudioUrlOf(publicUrl, row.id),
        length,
        type: file.type,
      },
      pubDate: row.publishedAt,
      durationSeconds: row.durationMs === null ? null : row.durationMs / 1000,
      episodeNumber: row.episodeNumber,
      imageUrl: null,
    };
  }

  return {
    /** The feed document and its entity tag (a hash of the bytes, so exact). */
    async feed(podcastId: string): Promise<{ xml: string; etag: string }> {
      const show = await feeds.show(podcastId);
      if (!show) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
      const feedUrl = feedUrlOf(publicUrl, show.id);
      // Shows made before feed_guid existed get it on their first fetch, stored for good:
      // a later PUBLIC_URL change moves the feed, not the show's identity.
      const guid =
        show.feedGuid ??
        (await deps.fixFeedGuid(show.id, podcastGuidOf(feedUrl))) ??
        podcastGuidOf(feedUrl);
      const rows = await feeds.episodes(show.id);
      const items = (await Promise.all(rows.map(itemOf))).filter((i) => i !== null);
      const changed = rows.reduce(
        (latest, r) => Math.max(latest, r.publishedAt.getTime()),
        (show.updatedAt ?? show.createdAt).getTime(),
      );
      const author = show.creatorName ?? show.title;
      const xml = renderRssFeed(
        {
          title: show.title,
          // RSS requires a description; a show without one repeats its title.
          description: show.description || show.title,
          link: showPageUrlOf(publicUrl, show.id),
          feedUrl,
          language: show.language,
          imageUrl: imageOf(show.id, show.coverArtUrl),
          author,
          ownerName: author,
          ownerEmail: show.ownerEmail,
          category: show.category,
          explicit: show.explicit,
          guid,
          lastBuildDate: new Date(changed),
        },
        items,
      );
      return { xml, etag: entityTag(xml) };
    },

    /**
     * The show's cover as a square ARTWORK_SIDE px JPEG (the feed's itunes:image). The entity
     * tag names the stored cover, so `render` (a decode and an encode, ~50 ms) runs only for
     * a client that does not hold this cover's artwork already. 404 for no show, a show
     * without a cover of its own, or a cover whose file is gone.
     */
    async artwork(podcastId: string): Promise<{ etag: string; render: () => Promise<Buffer> }> {
      const show = await feeds.show(podcastId);
      if (!show) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
      const cover = coverLocation(show.coverArtUrl);
      if (!cover) throw new AppError(ErrorCode.notFound, podcastMessages.noArtwork);
      return {
        etag: entityTag(`${cover.bucket}/${cover.key}@${ARTWORK_SIDE}`),
        render: async () =>
          squareJpeg(await buffer(await storage.read(cover.bucket, cover.key)), ARTWORK_SIDE),
      };
    },

    /**
     * The episode's enclosure (its AAC rendition, or an MP3 or M4A original) at its public
     * URL. Without media offload it is read from
     * storage here (Range, conditional requests); with nginx or a store sending media, the
     * answer is a redirect to a freshly signed /media URL, which that sender serves. Either
     * way a GET from the first byte counts one download before anything is sent.
     */
    async episodeAudio(episodeId: string, request: AudioRequest): Promise<AudioAnswer> {
      const row = await feeds.episodeAudio(episodeId);
      const audio = row && enclosedOf(row);
      if (!audio) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      const { bucket, key } = audio;
      const get = request.method === 'GET';

      if (deps.offload !== 'none') {
        // The size is the sender's to know: only "from the first byte" is decided here.
        const range = decideRange(request.range, Number.MAX_SAFE_INTEGER);
        const part = range.kind === 'partial' ? range : undefined;
        if (get && range.kind !== 'unsatisfiable' && countsAsDownload(part, Infinity))
          await countDownload(episodeId, request.client);
        return { kind: 'redirect', location: absolute(deps.mediaUrl(`/media/${bucket}/${key}`)) };
      }

      const object = await storage.stat(bucket, key);
      if (!object) throw new AppError(ErrorCode.notFound, podcastMessages.episodeNotFound);
      const notModified =
        request.ifNoneMatch !== undefined
          ? noneMatch(request.ifNoneMatch, object.etag)
          : notModifiedSince(request.ifModifiedSince, object.lastModified);
      if (notModified)
        return { kind: 'not-modified', etag: object.etag, lastModified: object.lastModified };

      // Range is defined for GET only (RFC 9110 §14.2); HEAD describes the whole file.
      const range = decideRange(
        get && ifRangeMatches(request.ifRange, object.etag, object.lastModified)
          ? request.range
          : undefined,
        object.size,
      );
      if (range.kind === 'unsatisfiable') return { kind: 'unsatisfiable', size: object.size };
      const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;

      const body = get ? await storage.read(bucket, key, part) : null;
      if (body && countsAsDownload(part, object.size)) {
        try {
          await countDownload(episodeId, request.client);
        } catch (error) {
          body.destroy();
          throw error;
        }
      }
      return {
        kind: 'bytes',
        contentType: audio.file.type,
        size: object.size,
        etag: object.etag,
        lastModified: object.lastModified,
        part,
        body,
      };
    },
  };
}
