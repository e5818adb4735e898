import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { registerMediaJob, type MediaJobKind, type MediaJobPort } from '../../media/media-job.ts';
import type { RequestLane } from '../../http/request-lane.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { CrashPoint } from '../../storage/crash-point.ts';
import { isValidKey, storedLocation } from '../../storage/storage.ts';
import { createMediaUrlSigner } from '../../security/media-url-signer.ts';
import { mediaLane } from './media.lane.ts';
import {
  mediaRoutes,
  storedFileSender,
  type SendOptions,
  type SendOutcome,
} from './media.routes.ts';
import { createCoverSizes, type StoredFile } from './cover-sizes.ts';
import { createAudioClips, openingClipKey } from './audio-clips.ts';
import { createMediaService, type MediaOffload, type MediaService } from './media.service.ts';
import { createMediaReconciler, type MediaReconciler } from './media-reconciler.ts';
import { createMediaReferencesRepository } from './media-references.repository.ts';

/**
 * Stored files served at /media/<bucket>/<key> (Range, ETag, immutable caching), audio only
 * under signed, expiring URLs. Other modules turn the stored `/media/…` URLs of their rows
 * into the URLs clients get with `publicUrl` when they serialize them, so no signature is
 * ever stored (docs/decisions/0010).
 */
export type MediaModule = FeatureModule & {
  publicUrl: MediaService['publicUrl'];
  /**
   * Sends a stored file's bytes exactly as the /media route does (Range, 206/416, ETag and
   * conditional requests, MEDIA_OFFLOAD), for modules that answer files under their own
   * protocol and access check (Subsonic's stream, download, getCoverArt). Sends nothing
   * when the file is missing or the range unsatisfiable: the outcome says which.
   */
  sendStored(
    request: FastifyRequest,
    reply: FastifyReply,
    file: StoredFile,
    options: SendOptions,
  ): Promise<SendOutcome>;
  /**
   * A stored cover scaled to fit `side`×`side` px (aspect kept, never enlarged; JPEG),
   * made on the first request and kept in the cover-art bucket as long as the cover is.
   */
  scaledCover(cover: StoredFile, side: number): Promise<StoredFile>;
  /** A stored image's pixel size (read once per file: keys never change their bytes). */
  imageSize(image: StoredFile): Promise<{ width: number; height: number }>;
  /**
   * The first OPENING_CLIP_SECONDS of an Opus/WebM rendition, stream-copied on the first
   * request (one ffmpeg run however many ask at once) and kept beside the rendition as long
   * as a row names it: a song's preview for visitors.
   */
  openingClip(rendition: StoredFile): Promise<StoredFile>;
  /** Files made from `file` on request (its opening clip), for its owner's delete to remove. */
  derivedFilesOf(file: StoredFile): StoredFile[];
  /**
   * The route's answer to plain seeks under signed URLs, for app.ts to put in front of Fastify
   * (media.lane.ts); undefined unless Node sends the bytes from a store with small reads.
   */
  lane: RequestLane | undefined;
  /** Makes storage and rows agree after crashes; the host starts it (host.ts). */
  reconciler: MediaReconciler;
  /** Where an upload's audio waits while it is checked; the reconciler sweeps what crashes leave. */
  tempDir: string;
  /**
   * Registers the media job of a kind of uploaded audio (songs, episodes, ads; ADR 0014) on
   * the app's queue, MEDIA_WORKERS of all kinds at once (ADR 0028), over the rows its module
   * configured (media/media-rows.repository.ts); gives the way to enqueue one, in `tx`.
   */
  registerJob(
    kind: MediaJobKind,
    rows: MediaJobPort,
    crash?: CrashPoint,
  ): (id: string, tx?: Db) => Promise<void>;
};

/**
 * An item's stored audio as modules hand it to one another (Subsonic's stream): its kept
 * original and its renditions (ADR 0014), by bitrate ascending; none while processing.
 */
export type StoredAudio = {
  title: string;
  artist: string | null;
  original: StoredFile;
  renditions: Array<StoredFile & { format: string; codec: string; bitrateKbps: number }>;
};

/** The bucket and key of a stored `/media/<bucket>/<key>` URL with a valid key, else null. */
export function storedFileOf(url: string | null): StoredFile | null {
  const location = storedLocation(url);
  return location && isValidKey(location.key) ? location : null;
}

export type { MediaOffload, SendOptions, SendOutcome, StoredFile };
export { COVER_SIZE_MAX, COVER_SIZE_MIN } from './cover-sizes.ts';
export { OPENING_CLIP_SECONDS } from './audio-clips.ts';

/** Where an upload's bytes wait while they are checked; the reconciler sweeps what crashes leave. */
export const uploadTempDir = (dataDir: string) => path.join(dataDir, 'tmp');

export type MediaSettings = {
  /** MEDIA_OFFLOAD: who sends a checked file's bytes (Node, nginx, or the store by redirect). */
  offload: MediaOffload;
  /** CDN_URL: with a redirect, the base that replaces presigned store URLs. */
  cdnUrl: string | undefined;
  /** The uploads' temp directory (uploadTempDir), which the reconciler sweeps too. */
  tempDir: string;
  /** MEDIA_WORKERS: media jobs of every kind this process runs at once, as many as ffmpeg runs. */
  mediaWorkers: number;
  /** MEDIA_SWEEP_*: how old an unreferenced file must be to go, and how often a pass runs. */
  sweep: { ageSeconds: number; intervalSeconds: number };
};

export function createMediaModule(
  ctx: ModuleContext,
  { settings }: { settings: MediaSettings },
): MediaModule {
  const signer = createMediaUrlSigner({
    secretKey: ctx.secretKey,
    clock: ctx.clock,
  });
  const media = createMediaService({
    signer,
    storage: ctx.storage,
    clock: ctx.clock,
    offload: settings.offload,
    cdnUrl: settings.cdnUrl,
  });
  const covers = createCoverSizes({ storage: ctx.storage, log: ctx.log });
  const clips = createAudioClips({
    storage: ctx.storage,
    ffmpeg: ctx.ffmpeg,
    tempDir: settings.tempDir,
    log: ctx.log,
  });
  return {
    name: 'media',
    sendStored: storedFileSender({ storage: ctx.storage, media, offload: settings.offload }),
    scaledCover: covers.scaled,
    imageSize: covers.sizeOf,
    openingClip: clips.openingClip,
    derivedFilesOf: (file) => {
      const clip = openingClipKey(file);
      return clip ? [clip] : [];
    },
    lane: settings.offload === 'none' ? mediaLane({ storage: ctx.storage, media }) : undefined,
    plugin: mediaRoutes({ storage: ctx.storage, media, offload: settings.offload }),
    publicUrl: media.publicUrl,
    tempDir: settings.tempDir,
    registerJob: (kind, rows, crash) =>
      registerMediaJob(ctx.jobs, {
        kind,
        rows,
        crash,
        storage: ctx.storage,
        ffmpeg: ctx.ffmpeg,
        tempDir: settings.tempDir,
        log: ctx.log,
        concurrency: settings.mediaWorkers,
      }),
    reconciler: createMediaReconciler({
      storage: ctx.storage,
      references: createMediaReferencesRepository(ctx.database.db),
      tempDir: settings.tempDir,
      clock: ctx.clock,
      log: ctx.log,
      ageSeconds: settings.sweep.ageSeconds,
      intervalSeconds: settings.sweep.intervalSeconds,
    }),
  };
}

/**
 * Origins the browser fetches media from besides Canto's own, for the page's CSP
 * (media-src, img-src): with MEDIA_OFFLOAD=redirect, the CDN or the S3 endpoint.
 */
export function mediaOrigins(
  settings: Pick<MediaSettings, 'offload' | 'cdnUrl'> & { storeEndpoint: string | undefined },
): string[] {
  if (settings.offload !== 'redirect') return [];
  const base = settings.cdnUrl ?? settings.storeEndpoint;
  // Without an endpoint the SDK talks to AWS over https:, which the CSP already allows.
  return base ? [new URL(base).origin] : [];
}
