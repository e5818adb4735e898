import crypto from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { isUuid } from '../../core/uuid.ts';

/**
 * File storage for media (a local directory by default, any S3-compatible store with
 * STORAGE=s3). Objects are immutable: every upload gets a fresh server-made key,
 * so an ETag never changes for a key and media can be cached forever.
 */
export const BUCKETS = ['music', 'cover-art', 'podcasts', 'avatars'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** The only extensions a key may carry, and the one media type each is stored and served as. */
export const MEDIA_TYPES = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  // The media pipeline's Opus renditions (docs/decisions/0014).
  webm: 'audio/webm',
  flac: 'audio/flac',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  // The media pipeline's waveform peaks (docs/decisions/0014).
  json: 'application/json',
} as const satisfies Record<string, string>;
export type MediaExtension = keyof typeof MEDIA_TYPES;

/** Inclusive byte positions, as in HTTP's Range header. */
export type ByteRange = { start: number; end: number };

export type StoredObject = { size: number; contentType: string; etag: string; lastModified: Date };

export type PutOptions = { contentType: string; maxBytes: number };

export type PresignOptions = {
  method: 'GET' | 'HEAD';
  /** Rounded by the caller, so the same object gets the same URL for a while (cacheable). */
  signingDate: Date;
  expiresInSeconds: number;
  /** Sent as the response's Cache-Control / Content-Disposition by the store. */
  cacheControl?: string;
  contentDisposition?: string;
};

export interface Storage {
  readonly kind: 'local' | 's3';
  /**
   * Streams `source` into a new object. Never holds the whole file in memory. Past `maxBytes`
   * it stops, leaves no object behind and throws AppError payloadTooLarge. `contentType` must
   * be the type of the key's extension (MEDIA_TYPES): both adapters serve that type.
   */
  put(
    bucket: Bucket,
    key: string,
    source: Readable,
    options: PutOptions,
  ): Promise<{ key: string; size: number }>;
  /** Null when the object does not exist. `etag` is a quoted strong entity tag. */
  stat(bucket: Bucket, key: string): Promise<StoredObject | null>;
  /**
   * The object's bytes, or the inclusive `range` of them (an end past the object is clamped).
   * Throws AppError notFound when missing, rangeNotSatisfiable when `start` is past the end.
   * Async because a remote store answers before the body flows.
   */
  read(bucket: Bucket, key: string, range?: ByteRange): Promise<Readable>;
  /**
   * A small range's bytes in one buffer, for a store that can read them without a stream
   * (local disk: one positioned read, or a slice of the file held in memory); same errors as
   * `read`. Absent elsewhere. The buffer may be shared with other reads: never modify it.
   */
  readSmall?(bucket: Bucket, key: string, range: ByteRange): Promise<Buffer>;
  /**
   * A URL at which the store itself answers `method` for the object until `signingDate` +
   * `expiresInSeconds` (an S3 presigned URL), with the response's Content-Type fixed to the
   * key's type. Absent when the store cannot serve URLs (local disk). No I/O: nothing checks
   * that the object exists.
   */
  presignedUrl?(bucket: Bucket, key: string, options: PresignOptions): Promise<string>;
  /** Idempotent: deleting a missing object is not an error. */
  delete(bucket: Bucket, key: string): Promise<void>;
  exists(bucket: Bucket, key: string): Promise<boolean>;
  /**
   * The key of every object in `bucket`, in no particular order, a page at a time (the
   * media reconciler compares them with the rows). Only names a key could be: a put's
   * unfinished temporary file or anything else not made by Canto is never listed.
   */
  list(bucket: Bucket): AsyncIterable<string>;
  /**
   * Removes what puts that never finished left behind (a crashed process's local `.part`
   * files, an S3 store's incomplete multipart uploads) if last written before `olderThan`:
   * a younger one may belong to a put still running. Returns how many it removed.
   */
  sweepUnfinished(olderThan: Date): Promise<number>;
  /** Releases sockets and the like; the local adapter has nothing to release. */
  close(): Promise<void>;
}

// `<uuid>.<ext>` (newKey) or `<uuid>/<digits>.<ext>` (ownedKey). Nothing else: no dots but
// the extension's, at most one slash, so a key can never climb out of its bucket.
const KEY = /^[0-9a-f-]{36}(?:\/[0-9]{1,16})?\.([a-z0-9]{1,5})$/;
// A stored file's URL as the rows keep it (`/media/<bucket>/<key>`).
const STORED_URL = /^\/media\/([a-z-]+)\/([^?#]+)$/;

export function isBucket(value: string): value is Bucket {
  return (BUCKETS as readonly string[]).includes(value);
}

export function isMediaExtension(value: string): value is MediaExtension {
  return Object.hasOwn(MEDIA_TYPES, value);
}

/** True for keys newKey or ownedKey could have made, with a whitelisted extension. */
export function isValidKey(key: string): boolean {
  const m = KEY.exec(key);
  return m !== null && isMediaExtension(m[1]!);
}

/**
 * The bucket and key of a `/media/<bucket>/<key>` URL; null for any other (an external URL).
 * The key is as written: the caller decides what an invalid one means (isValidKey).
 */
export function storedLocation(url: string | null): { bucket: Bucket; key: string } | null {
  const m = url === null ? null : STORED_URL.exec(url);
  if (!m || !isBucket(m[1]!)) return null;
  return { bucket: m[1], key: m[2]! };
}

export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  if (!isMediaExtension(ext)) throw new AppError(ErrorCode.validation, 'Invalid storage key');
  return MEDIA_TYPES[ext];
}

/** A whitelisted extension, lower case, without its dot; unsupportedMedia for any other. */
function keyExtension(ext: string): MediaExtension {
  const clean = ext.toLowerCase().replace(/^\./, '');
  if (!isMediaExtension(clean))
    throw new AppError(ErrorCode.unsupportedMedia, `Unsupported file type: ${clean}`);
  return clean;
}

/** A fresh key; client file names never reach storage. */
export function newKey(ext: string): string {
  return `${crypto.randomUUID()}.${keyExtension(ext)}`;
}

/**
 * A key under its owner's id, `<ownerId>/<timestamp>.<ext>`: where spec §7 Storage puts avatars
 * ({userId}/{timestamp}.{extension}). Unique as long as one owner makes at most one a
 * millisecond, which the caller ensures (the timestamp is the owner's clock, not a secret).
 */
export function ownedKey(ownerId: string, timestamp: number, ext: string): string {
  if (!isUuid(ownerId, 'lower-case') || !Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new AppError(ErrorCode.validation, 'Invalid storage key');
  return `${ownerId}/${timestamp}.${keyExtension(ext)}`;
}

/**
 * Checks a bucket/key pair before any adapter builds a path or an object name from it, so a
 * key like `../../etc/passwd` can never reach the file system even if a caller forgot to.
 */
export function assertLocation(bucket: string, key: string): asserts bucket is Bucket {
  assertBucket(bucket);
  if (!isValidKey(key)) throw new AppError(ErrorCode.validation, 'Invalid storage key');
}

export function assertBucket(bucket: string): asserts bucket is Bucket {
  if (!isBucket(bucket)) throw new AppError(ErrorCode.validation, 'Unknown storage bucket');
}

export function assertPutOptions(key: string, options: PutOptions) {
  const given = options.contentType.split(';')[0]!.trim().toLowerCase();
  if (given !== contentTypeOfKey(key)) {
    throw new AppError(
      ErrorCode.validation,
      `Content type ${given} does not match the key's extension`,
    );
  }
  if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
    throw new AppError(ErrorCode.validation, 'maxBytes must be a non-negative integer');
  }
}

export function assertRange(range: ByteRange | undefined) {
  if (!range) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new AppError(ErrorCode.validation, 'Invalid byte range');
  }
}

export function tooLarge(maxBytes: number) {
  return new AppError(ErrorCode.payloadTooLarge, `File is larger than ${maxBytes} bytes`, {
    maxBytes,
  });
}

export function notFound() {
  return new AppError(ErrorCode.notFound, 'File not found');
}

export function unsatisfiable(size: number) {
  return new AppError(ErrorCode.rangeNotSatisfiable, 'Range not satisfiable', { size });
}

/** Passes bytes through, counting; fails with payloadTooLarge the moment the count passes the limit. */
export class ByteLimit extends Transform {
  bytes = 0;
  exceeded = false;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.exceeded = true;
      callback(tooLarge(this.maxBytes));
      return;
    }
    callback(null, chunk);
  }
}
