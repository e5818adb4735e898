import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Log } from '../../log.ts';
import type { Bucket, Storage } from '../../storage/storage.ts';

/** A stored file: its bucket and its key there. */
export type StoredFile = { bucket: Bucket; key: string };

/** The sides a scaled cover may be asked for (OpenSubsonic getCoverArt `size`). */
export const COVER_SIZE_MIN = 1;
export const COVER_SIZE_MAX = 2048;

// Stored covers are at most 1000 px WebP (media-intake.ts); a scaled one is a few kB of JPEG.
const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
const MAX_SCALED_BYTES = 8 * 1024 * 1024;
const NEW_KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[a-z0-9]+$/;

/**
 * Where the scaled copy of a cover lives: under the cover's own UUID (`<uuid>/<side>.jpg`,
 * an owned key's form), so the media reconciler keeps it exactly as long as some row still
 * names the cover (media-reconciler.ts, derived covers). A cover under an owned key gets a
 * UUID-shaped hash of its location instead, which no row names: swept when old, made again.
 */
export function scaledCoverKey(cover: StoredFile, side: number): string {
  const own = NEW_KEY.exec(cover.key)?.[1];
  if (own) return `${own}/${side}.jpg`;
  const h = crypto.createHash('sha256').update(`${cover.bucket}/${cover.key}`).digest('hex');
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  return `${uuid}/${side}.jpg`;
}

/**
 * Covers scaled to fit a square of `side` px (aspect kept, never enlarged), as sRGB JPEG
 * (every Subsonic client shows JPEG; not all show WebP), made once per cover and side and
 * kept in the cover-art bucket: a second request only finds the file. Concurrent requests
 * for the same copy share one resize.
 */
export function createCoverSizes({ storage, log }: { storage: Storage; log: Log }) {
  const making = new Map<string, Promise<StoredFile>>();

  async function make(cover: StoredFile, scaled: StoredFile, side: number): Promise<StoredFile> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await storage.read(cover.bucket, cover.key)) {
      size += (chunk as Buffer).length;
      if (size > MAX_SOURCE_BYTES) throw new Error('cover too large to scale');
      chunks.push(chunk as Buffer);
    }
    // sharp (libvips) is loaded on the first image, not at start (ADR 0009).
    const { default: sharp } = await import('sharp');
    const bytes = await sharp(Buffer.concat(chunks), {
      failOn: 'error',
      limitInputPixels: 40_000_000,
    })
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#000000' })
      .toColourspace('srgb')
      .jpeg({ quality: 82 })
      .toBuffer();
    await storage.put(scaled.bucket, scaled.key, Readable.from([bytes]), {
      contentType: 'image/jpeg',
      maxBytes: MAX_SCALED_BYTES,
    });
    log.debug({ cover: cover.key, side, bytes: bytes.length }, 'scaled a cover');
    return scaled;
  }

  // Stored files never change under a key: their sizes may be kept (a bounded few).
  const sizes = new Map<string, { width: number; height: number }>();
  async function sizeOf(file: StoredFile): Promise<{ width: number; height: number }> {
    const id = `${file.bucket}/${file.key}`;
    const known = sizes.get(id);
    if (known) return known;
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(file.bucket, file.key))
      chunks.push(chunk as Buffer);
    const { default: sharp } = await import('sharp');
    const { width, height } = await sharp(Buffer.concat(chunks)).metadata();
    if (!width || !height) throw new Error(`no size in ${id}`);
    if (sizes.size >= 1000) sizes.delete(sizes.keys().next().value!);
    sizes.set(id, { width, height });
    return { width, height };
  }

  return {
    sizeOf,
    /** The cover's copy scaled to `side`, made and stored on the first request for it. */
    async scaled(cover: StoredFile, side: number): Promise<StoredFile> {
      const scaled: StoredFile = { bucket: 'cover-art', key: scaledCoverKey(cover, side) };
      if (await storage.exists(scaled.bucket, scaled.key)) return scaled;
      const id = `${scaled.bucket}/${scaled.key}`;
      let pending = making.get(id);
      if (!pending) {
        pending = make(cover, scaled, side).finally(() => making.delete(id));
        making.set(id, pending);
      }
      return pending;
    },
  };
}
