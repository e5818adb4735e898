import path from 'node:path';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { createMediaUrlSigner } from '../../security/media-url-signer.ts';
import { mediaRoutes } from './media.routes.ts';
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
  /** Makes storage and rows agree after crashes; the host starts it (host.ts). */
  reconciler: MediaReconciler;
};

export type { MediaOffload };

/** Where an upload's bytes wait while they are checked; the reconciler sweeps what crashes leave. */
export const uploadTempDir = (dataDir: string) => path.join(dataDir, 'tmp');

export type MediaSettings = {
  /** MEDIA_OFFLOAD: who sends a checked file's bytes (Node, nginx, or the store by redirect). */
  offload: MediaOffload;
  /** CDN_URL: with a redirect, the base that replaces presigned store URLs. */
  cdnUrl: string | undefined;
  /** The uploads' temp directory (uploadTempDir), which the reconciler sweeps too. */
  tempDir: string;
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
  return {
    name: 'media',
    plugin: mediaRoutes({ storage: ctx.storage, media, offload: settings.offload }),
    publicUrl: media.publicUrl,
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
