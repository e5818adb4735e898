import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import {
  assertLocation,
  assertPutOptions,
  assertRange,
  ByteLimit,
  contentTypeOfKey,
  notFound,
  unsatisfiable,
  type Bucket,
  type ByteRange,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.ts';

/**
 * Files under `<root>/<bucket>/<key>` (root is `${DATA_DIR}/media`, the layout the demo seed
 * writes). No sidecar files: the content type follows from the key's whitelisted extension,
 * and the ETag from size + modification time, which is strong because an object is never
 * rewritten under the same key.
 *
 * That immutability also lets stat results be cached briefly (players send many Range
 * requests for one file): a cached size spares read() an fstat, so a seek costs open + read.
 * A file deleted by another process is still caught by read()'s open (→ notFound).
 */

const openForRead = (file: string) => promisify(fs.open)(file, 'r');
export function createLocalStorage(root: string): Storage {
  const ready = new Map<Bucket, Promise<unknown>>();
  const dirOf = (bucket: Bucket) => path.join(root, bucket);
  const ensureDir = (bucket: Bucket) => {
    let p = ready.get(bucket);
    if (!p) {
      p = fsp.mkdir(dirOf(bucket), { recursive: true });
      ready.set(bucket, p);
      p.catch(() => ready.delete(bucket));
    }
    return p;
  };
  const cache = new StatCache();
  const fileOf = (bucket: string, key: string) => {
    assertLocation(bucket, key);
    return path.join(dirOf(bucket), key);
  };

  async function stat(bucket: Bucket, key: string): Promise<StoredObject | null> {
    const file = fileOf(bucket, key);
    const cached = cache.get(file);
    if (cached) return cached;
    try {
      const s = await fsp.stat(file);
      if (!s.isFile()) return null;
      return cache.set(file, describe(key, s));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    kind: 'local',

    async put(bucket, key, source, options: PutOptions) {
      const file = fileOf(bucket, key);
      assertPutOptions(key, options);
      await ensureDir(bucket);
      // Written beside the target and renamed, so a reader never sees half a file; the dot
      // name can never match a valid key.
      const temp = path.join(dirOf(bucket), `.${crypto.randomUUID()}.part`);
      const limit = new ByteLimit(options.maxBytes);
      cache.delete(file);
      try {
        await pipeline(source, limit, fs.createWriteStream(temp, { flags: 'wx' }));
        await fsp.rename(temp, file);
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
      return { key, size: limit.bytes };
    },

    stat,

    async read(bucket, key, range?: ByteRange): Promise<Readable> {
      const file = fileOf(bucket, key);
      assertRange(range);
      // A numeric fd and fs.createReadStream: FileHandle streams read through the promise
      // API chunk by chunk, which measurably delays the first byte of a Range response.
      let fd: number;
      try {
        fd = await openForRead(file);
      } catch (error) {
        if (isMissing(error)) throw notFound();
        throw error;
      }
      const stream = (opts: { start?: number; end?: number }) =>
        fs.createReadStream(file, { fd, autoClose: true, highWaterMark: 256 * 1024, ...opts });
      try {
        if (!range) return stream({});
        const size = cache.get(file)?.size ?? (await fsp.stat(file)).size;
        if (range.start >= size) throw unsatisfiable(size);
        return stream({ start: range.start, end: Math.min(range.end, size - 1) });
      } catch (error) {
        fs.close(fd, () => {});
        throw error;
      }
    },

    async delete(bucket, key) {
      const file = fileOf(bucket, key);
      cache.delete(file);
      await fsp.rm(file, { force: true });
    },

    async exists(bucket, key) {
      return (await stat(bucket, key)) !== null;
    },

    async close() {},
  };
}

/** A bounded, short-lived map of file → stat; insertion order doubles as age order. */
class StatCache {
  private readonly entries = new Map<string, { object: StoredObject; expires: number }>();
  constructor(
    private readonly max = 2_000,
    private readonly ttlMs = 60_000,
  ) {}

  get(file: string): StoredObject | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      this.entries.delete(file);
      return undefined;
    }
    return entry.object;
  }

  set(file: string, object: StoredObject): StoredObject {
    this.entries.delete(file);
    this.entries.set(file, { object, expires: Date.now() + this.ttlMs });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return object;
  }

  delete(file: string) {
    this.entries.delete(file);
  }
}

function describe(key: string, s: fs.Stats): StoredObject {
  return {
    size: s.size,
    contentType: contentTypeOfKey(key),
    etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
    lastModified: s.mtime,
  };
}

function isMissing(error: unknown) {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
