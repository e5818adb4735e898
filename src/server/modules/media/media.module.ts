import path from 'node:path';
import type { Db } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import { registerMediaJob, type MediaJobKind, type MediaJobPort } from '../../media/media-job.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { CrashPoint } from '../../storage/crash-point.ts';
import { createMediaUrlSigner } from '../../security/media-url-signer.ts';
import { mediaRoutes } from './media.routes.ts';
import { createMediaService, type MediaService } from './media.service.ts';
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
  /** Makes storage and rows agree after crashes; the host starts it (main.ts). */
  reconciler: MediaReconciler;
  /** Where an upload's audio waits while it is checked; the reconciler sweeps what crashes leave. */
  tempDir: string;
  /**
   * Registers the media job of a kind of uploaded audio (songs, episodes, ads; ADR 0014) on
   * the app's queue, MEDIA_WORKERS at once through the one ffmpeg, over the rows its module
   * configured (media/media-rows.repository.ts); gives the way to enqueue one, in `tx`.
   */
  registerJob(
    kind: MediaJobKind,
    rows: MediaJobPort,
    crash?: CrashPoint,
  ): (id: string, tx?: Db) => Promise<void>;
};

/** Where an upload's bytes wait while they are checked; the reconciler sweeps what crashes leave. */
export const uploadTempDir = (env: Pick<Env, 'dataDir'>) => path.join(env.dataDir, 'tmp');

export function createMediaModule(ctx: ModuleContext): MediaModule {
  const { env } = ctx;
  const signer = createMediaUrlSigner({
    secretKey: ctx.secretKey,
    clock: ctx.clock,
  });
  const media = createMediaService({
    signer,
    storage: ctx.storage,
    clock: ctx.clock,
    offload: env.mediaOffload,
    cdnUrl: env.cdnUrl,
  });
  return {
    name: 'media',
    plugin: mediaRoutes({ storage: ctx.storage, media, offload: env.mediaOffload }),
    publicUrl: media.publicUrl,
    tempDir: uploadTempDir(env),
    registerJob: (kind, rows, crash) =>
      registerMediaJob(ctx.jobs, {
        kind,
        rows,
        crash,
        storage: ctx.storage,
        ffmpeg: ctx.ffmpeg,
        tempDir: uploadTempDir(env),
        log: ctx.log,
        concurrency: env.mediaWorkers,
      }),
    reconciler: createMediaReconciler({
      storage: ctx.storage,
      references: createMediaReferencesRepository(ctx.database.db),
      tempDir: uploadTempDir(env),
      clock: ctx.clock,
      log: ctx.log,
      ageSeconds: env.mediaSweep.ageSeconds,
      intervalSeconds: env.mediaSweep.intervalSeconds,
    }),
  };
}

/**
 * Origins the browser fetches media from besides Canto's own, for the page's CSP
 * (media-src, img-src): with MEDIA_OFFLOAD=redirect, the CDN or the S3 endpoint.
 */
export function mediaOrigins(env: Pick<Env, 'mediaOffload' | 'cdnUrl' | 's3'>): string[] {
  if (env.mediaOffload !== 'redirect') return [];
  const base = env.cdnUrl ?? env.s3.endpoint;
  // Without an endpoint the SDK talks to AWS over https:, which the CSP already allows.
  return base ? [new URL(base).origin] : [];
}
