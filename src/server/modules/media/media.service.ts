import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { Clock } from '../../../core/clock.ts';
import type { MediaUrlSigner } from '../../security/media-url-signer.ts';
import {
  isBucket,
  isValidKey,
  storedLocation,
  type Bucket,
  type Storage,
} from '../../storage/storage.ts';

/**
 * Which media needs a signed URL, how stored URLs become the URLs clients get, and where an
 * offloaded request is sent (docs/decisions/0010).
 *
 * Audio (music, podcasts) is served only under a signed, expiring URL. Covers and avatars
 * stay public: they are shown to everyone who may see the song or profile, and a permanent
 * URL lets every browser and CDN keep one copy for a year instead of re-fetching every cover
 * when the signing window turns.
 */
export const SIGNED_BUCKETS: ReadonlySet<Bucket> = new Set<Bucket>(['music', 'podcasts']);

export type MediaOffload = 'none' | 'x-accel' | 'redirect';

/** nginx's `internal` location that maps onto DATA_DIR/media (docs/deploy/nginx/canto.conf). */
export const X_ACCEL_PREFIX = '/_canto_media/';

// Presigned store URLs: the signing time is rounded down to PRESIGN_STEP so one object has
// one URL per step (cacheable), and each URL is valid for PRESIGN_TTL from that time, i.e.
// at least PRESIGN_TTL − PRESIGN_STEP after it is handed out.
const PRESIGN_STEP_S = 5 * 60;
const PRESIGN_TTL_S = 15 * 60;

// Recently verified signed URLs kept (oldest dropped first).
const VERIFIED_MAX = 1_000;

export type MediaAccess = {
  /** Unix seconds after which the request's URL stops working; undefined for public media. */
  expires: number | undefined;
};

export type Redirect = { location: string; cacheControl: string };

export type MediaService = ReturnType<typeof createMediaService>;

export function createMediaService(deps: {
  signer: MediaUrlSigner;
  storage: Storage;
  clock: Clock;
  offload: MediaOffload;
  cdnUrl: string | undefined;
}) {
  const { signer, storage, clock } = deps;
  const cdnPath = deps.cdnUrl ? new URL(deps.cdnUrl).pathname.replace(/\/$/, '') : '';
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  const verified = new Map<string, number>();
  const remember = (memo: string, expires: number) => {
    verified.set(memo, expires);
    if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  };

  /**
   * Cache-Control for a verified response: immutable (a key's bytes never change), but a
   * signed URL may be kept only until it expires, so no shared cache serves it later.
   */
  function cacheControl(access: MediaAccess): string {
    if (access.expires === undefined) return 'public, max-age=31536000, immutable';
    return `public, max-age=${Math.max(0, access.expires - nowSeconds())}, immutable`;
  }

  function publicUrl(stored: string): string;
  function publicUrl(stored: string | null): string | null;
  /**
   * The URL a client may fetch for a stored one: `/media/<bucket>/<key>` of an audio bucket
   * gets a signature; public media and external URLs (catalogue previews) pass unchanged.
   */
  function publicUrl(stored: string | null): string | null {
    if (stored === null) return null;
    const location = storedLocation(stored);
    if (!location || !SIGNED_BUCKETS.has(location.bucket)) return stored;
    return signer.sign(stored);
  }

  return {
    publicUrl,

    /**
     * Lets a request for `/media/<bucket>/<key>` through, or throws: 404 for a location no
     * key could have (checked before anything else, so nothing odd reaches storage), 403 for
     * audio without a valid, unexpired signature for exactly this path.
     */
    authorize(bucket: string, key: string, query: unknown): MediaAccess & { bucket: Bucket } {
      if (!isBucket(bucket) || !isValidKey(key))
        throw new AppError(ErrorCode.notFound, 'File not found');
      if (!SIGNED_BUCKETS.has(bucket)) return { bucket, expires: undefined };
      const q = (query ?? {}) as { e?: unknown; s?: unknown };
      const path = `/media/${bucket}/${key}`;
      // A player sends many Range requests under one URL: a URL verified before needs only
      // its expiry checked. Only URLs that passed the HMAC are ever remembered.
      const memo = typeof q.s === 'string' ? `${path}\n${String(q.e)}\n${q.s}` : undefined;
      const known = memo === undefined ? undefined : verified.get(memo);
      if (known !== undefined && known > nowSeconds()) return { bucket, expires: known };
      const check = signer.verify(path, q.e, q.s);
      if (!check.ok) {
        throw new AppError(
          ErrorCode.forbidden,
          check.reason === 'expired'
            ? 'This media link has expired'
            : 'This media link is not valid',
          { reason: check.reason },
        );
      }
      remember(memo!, check.expires);
      return { bucket, expires: check.expires };
    },

    cacheControl,

    /** The internal URI nginx serves the file from (MEDIA_OFFLOAD=x-accel). */
    xAccelUri: (bucket: Bucket, key: string) => `${X_ACCEL_PREFIX}${bucket}/${key}`,

    /**
     * Where MEDIA_OFFLOAD=redirect sends a verified request: CDN_URL/<bucket>/<key> signed
     * the same way (the signature covers the CDN URL's own path), or a presigned store URL.
     */
    async redirect(
      bucket: Bucket,
      key: string,
      access: MediaAccess,
      method: 'GET' | 'HEAD',
      options: { contentDisposition?: string } = {},
    ): Promise<Redirect> {
      const now = nowSeconds();
      if (deps.cdnUrl) {
        const e = access.expires ?? signer.expiryNow();
        const path = `${cdnPath}/${bucket}/${key}`;
        return {
          location: `${deps.cdnUrl}/${bucket}/${key}?e=${e}&s=${signer.signatureOf(path, e)}`,
          cacheControl: `public, max-age=${Math.max(0, e - now)}`,
        };
      }
      if (!storage.presignedUrl) throw new Error('MEDIA_OFFLOAD=redirect needs STORAGE=s3');
      const signedAt = Math.floor(now / PRESIGN_STEP_S) * PRESIGN_STEP_S;
      const location = await storage.presignedUrl(bucket, key, {
        method,
        signingDate: new Date(signedAt * 1000),
        expiresInSeconds: PRESIGN_TTL_S,
        cacheControl: 'private, max-age=31536000, immutable',
        // The store cannot send media's script-blocking CSP: an SVG opened directly from it
        // downloads instead of rendering (an <img> shows it either way).
        contentDisposition:
          options.contentDisposition ?? (key.endsWith('.svg') ? 'attachment' : undefined),
      });
      // The redirect may be reused only while its target has PRESIGN_TTL − PRESIGN_STEP left.
      const reusable = signedAt + PRESIGN_STEP_S - now;
      return { location, cacheControl: `private, max-age=${Math.max(0, reusable)}` };
    },
  };
}
