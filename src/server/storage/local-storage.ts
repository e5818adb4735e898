import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { CrashPoint } from './crash-point.ts';
import { HotFiles, type LoadToken } from './hot-files.ts';
import {
  assertBucket,
  assertLocation,
  assertPutOptions,
  assertRange,
  BUCKETS,
  ByteLimit,
  contentTypeOfKey,
  isValidKey,
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
 * writes; an owned key's slash makes its owner's directory). No sidecar files: the content
 * type follows from the key's whitelisted extension, and the ETag from modification time +
 * size — nginx's format, so a file sent by nginx (MEDIA_OFFLOAD=x-accel) carries the same
 * validator as one sent from here. It is strong because an object is never rewritten under
 * the same key.
 *
 * That immutability also lets a file's stat and an open descriptor be kept briefly (players
 * send many Range requests for one file): a read then costs one positioned read per chunk,
 * no open, fstat or close, which were two thirds of a 64 KB Range request's file work. A
 * delete in this process closes the descriptor once its last reader is done; a file deleted
 * by another process can still be read for at most the cache's TTL.
 *
 * Files read again by small ranges (a player seeking) are kept whole in memory within
 * `memoryCacheBytes` (MEDIA_MEMORY_CACHE_MB; hot-files.ts): a range is then a slice, with no
 * trip through libuv's thread pool. Such bytes are used only while the file's stat is cached
 * with the same ETag, so a file deleted by another process stops being served as before.
 */

// The temporary name a put writes under; a crash leaves it behind (sweepUnfinished).
const PART_FILE = /^\.[0-9a-f-]{36}\.part$/;
const OWNER_DIR = /^[0-9a-f-]{36}$/;

/** Local storage, and how many bytes of hot files it holds in memory now (tests, diagnostics). */
export type LocalStorage = Storage & { heldInMemory(): number };

export function createLocalStorage(
  root: string,
  options: { crash?: CrashPoint; memoryCacheBytes?: number } = {},
): LocalStorage {
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
  const files = new FileCache();
  const hot = new HotFiles(options.memoryCacheBytes ?? 0);
  const fileOf = (bucket: string, key: string) => {
    assertLocation(bucket, key);
    return path.join(dirOf(bucket), key);
  };

  async function stat(bucket: Bucket, key: string): Promise<StoredObject | null> {
    const file = fileOf(bucket, key);
    const cached = files.get(file);
    if (cached) return cached.object;
    try {
      const s = await fsp.stat(file);
      if (!s.isFile()) return null;
      return files.set(file, describe(key, s)).object;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** The file's open descriptor and description, held until `release`. */
  async function acquire(file: string, key: string): Promise<Lease> {
    const cached = files.get(file);
    if (cached?.fd !== undefined) return cached.hold();
    let fd: number;
    try {
      fd = await open(file);
    } catch (error) {
      if (isMissing(error)) throw notFound();
      throw error;
    }
    try {
      const entry = files.get(file);
      // Another request opened it meanwhile: use that descriptor, close ours.
      if (entry?.fd !== undefined) {
        fs.close(fd, () => {});
        return entry.hold();
      }
      const object = entry?.object ?? describe(key, await fstat(fd));
      return files.set(file, object, fd).hold();
    } catch (error) {
      fs.close(fd, () => {});
      throw error;
    }
  }

  /** Reads the whole file into memory for later small reads; a failure only means no copy. */
  async function loadHot(file: string, key: string, object: StoredObject, token: LoadToken) {
    let lease: Lease | undefined;
    try {
      lease = await acquire(file, key);
      if (lease.object.etag !== object.etag) return hot.failed(file, token);
      const bytes = await readFully(lease.fd, Buffer.allocUnsafe(object.size), 0);
      hot.loaded(file, token, object.etag, bytes);
    } catch {
      hot.failed(file, token);
    } finally {
      lease?.release();
    }
  }

  return {
    kind: 'local',
    heldInMemory: () => hot.bytes,

    async put(bucket, key, source, put: PutOptions) {
      const file = fileOf(bucket, key);
      assertPutOptions(key, put);
      await ensureDir(bucket);
      // An owned key (`<owner>/<timestamp>.<ext>`) lives in its owner's directory.
      if (key.includes('/')) await fsp.mkdir(path.dirname(file), { recursive: true });
      // Written in the bucket's directory and renamed, so a reader never sees half a file;
      // the dot name can never match a valid key.
      const temp = path.join(dirOf(bucket), `.${crypto.randomUUID()}.part`);
      const limit = new ByteLimit(put.maxBytes);
      files.delete(file);
      hot.drop(file);
      try {
        await pipeline(source, limit, fs.createWriteStream(temp, { flags: 'wx' }));
        options.crash?.('storage:part-written');
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
      const lease = await acquire(file, key);
      const { size } = lease.object;
      if (range && range.start >= size) {
        lease.release();
        throw unsatisfiable(size);
      }
      const start = range?.start ?? 0;
      const end = range ? Math.min(range.end, size - 1) : size - 1;
      return new DescriptorReader(lease, start, end);
    },

    async readSmall(bucket, key, range: ByteRange): Promise<Buffer> {
      const file = fileOf(bucket, key);
      assertRange(range);
      const object = hot.enabled ? files.get(file)?.object : undefined;
      const held = object && hot.get(file, object.etag);
      if (held) {
        if (range.start >= held.length) throw unsatisfiable(held.length);
        return held.subarray(range.start, Math.min(range.end, held.length - 1) + 1);
      }
      const lease = await acquire(file, key);
      try {
        const { size } = lease.object;
        if (range.start >= size) throw unsatisfiable(size);
        const length = Math.min(range.end, size - 1) - range.start + 1;
        const buffer = await readFully(lease.fd, Buffer.allocUnsafe(length), range.start);
        const token = hot.wanted(file, size);
        if (token) void loadHot(file, key, lease.object, token);
        return buffer;
      } finally {
        lease.release();
      }
    },

    async delete(bucket, key) {
      const file = fileOf(bucket, key);
      files.delete(file);
      hot.drop(file);
      await fsp.rm(file, { force: true });
    },

    async exists(bucket, key) {
      return (await stat(bucket, key)) !== null;
    },

    async *list(bucket) {
      assertBucket(bucket);
      for await (const entry of entries(dirOf(bucket))) {
        if (entry.isFile() && isValidKey(entry.name)) yield entry.name;
        // An owner's directory of owned keys; a directory is left in place once emptied.
        if (!entry.isDirectory() || !OWNER_DIR.test(entry.name)) continue;
        for await (const inner of entries(path.join(dirOf(bucket), entry.name))) {
          const key = `${entry.name}/${inner.name}`;
          if (inner.isFile() && isValidKey(key)) yield key;
        }
      }
    },

    async sweepUnfinished(olderThan) {
      let removed = 0;
      for (const bucket of BUCKETS) {
        for await (const entry of entries(dirOf(bucket))) {
          if (!entry.isFile() || !PART_FILE.test(entry.name)) continue;
          const file = path.join(dirOf(bucket), entry.name);
          const s = await fsp.stat(file).catch(() => null);
          // mtime moves with every write, so a put still streaming stays young.
          if (!s || s.mtime >= olderThan) continue;
          await fsp.rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },

    async close() {
      files.clear();
      hot.clear();
    },
  };
}

/**
 * Bytes `start`..`end` (inclusive) of a shared descriptor by positioned reads, which leave
 * the descriptor's own offset alone, so any number of readers can share it. Never closes the
 * descriptor (fs.ReadStream closes even a borrowed one when destroyed): it releases its
 * lease once no read is in flight, so the descriptor is never closed under a read.
 * Chunks of up to 1 MB: a small range is one read, a whole file moves in big pieces.
 */
class DescriptorReader extends Readable {
  private position: number;
  private reading = false;
  private released = false;

  constructor(
    private readonly lease: Lease,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: CHUNK });
    this.position = start;
  }

  override _read() {
    const length = Math.min(this.end - this.position + 1, CHUNK);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const chunk = Buffer.allocUnsafe(length);
    this.reading = true;
    fs.read(this.lease.fd, chunk, 0, length, this.position, (error, bytes) => {
      this.reading = false;
      if (this.destroyed) return this.release();
      if (error) return this.destroy(error);
      // The file is immutable; fewer bytes than its size promised means it was cut short.
      if (bytes === 0) return this.destroy(new Error('file ended before its recorded size'));
      this.position += bytes;
      this.push(bytes === length ? chunk : chunk.subarray(0, bytes));
      if (this.position > this.end) this.push(null);
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    if (!this.reading) this.release();
    callback(error);
  }

  private release() {
    if (this.released) return;
    this.released = true;
    this.lease.release();
  }
}

const CHUNK = 1024 * 1024;

const open = (file: string) => promisify(fs.open)(file, 'r');
const fstat = promisify(fs.fstat);
/** Fills `buffer` from `position` on by positioned reads. */
async function readFully(fd: number, buffer: Buffer, position: number): Promise<Buffer> {
  let done = 0;
  while (done < buffer.length) {
    const bytes = await pread(fd, buffer, done, buffer.length - done, position + done);
    // The file is immutable; fewer bytes than its size promised means it was cut short.
    if (bytes === 0) throw new Error('file ended before its recorded size');
    done += bytes;
  }
  return buffer;
}

const pread = (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
  new Promise<number>((resolve, reject) =>
    fs.read(fd, buffer, offset, length, position, (error, bytes) =>
      error ? reject(error) : resolve(bytes),
    ),
  );

/** A reader's hold on a cached descriptor; the descriptor stays open until every hold is released. */
type Lease = { object: StoredObject; fd: number; release(): void };

/** A cache entry: a file's description and maybe an open descriptor shared by its readers. */
class CachedFile {
  private users = 0;
  private evicted = false;
  constructor(
    readonly object: StoredObject,
    readonly fd: number | undefined,
    readonly expires: number,
  ) {}

  /** Only for an entry with a descriptor. */
  hold(): Lease {
    this.users++;
    let released = false;
    return {
      object: this.object,
      fd: this.fd!,
      release: () => {
        if (released) return;
        released = true;
        this.users--;
        this.closeIfUnused();
      },
    };
  }

  evict() {
    this.evicted = true;
    this.closeIfUnused();
  }

  private closeIfUnused() {
    if (this.evicted && this.users === 0 && this.fd !== undefined) fs.close(this.fd, () => {});
  }
}

/**
 * A bounded, short-lived map of file → CachedFile; insertion order doubles as age order.
 * At most `max` entries, so at most `max` descriptors stay open.
 */
class FileCache {
  private readonly entries = new Map<string, CachedFile>();
  constructor(
    private readonly max = 256,
    private readonly ttlMs = 60_000,
  ) {}

  get(file: string): CachedFile | undefined {
    const entry = this.entries.get(file);
    if (entry && entry.expires < Date.now()) {
      this.delete(file);
      return undefined;
    }
    return entry;
  }

  set(file: string, object: StoredObject, fd?: number): CachedFile {
    this.delete(file);
    const entry = new CachedFile(object, fd, Date.now() + this.ttlMs);
    this.entries.set(file, entry);
    if (this.entries.size > this.max) this.delete(this.entries.keys().next().value!);
    return entry;
  }

  delete(file: string) {
    const entry = this.entries.get(file);
    if (!entry) return;
    this.entries.delete(file);
    entry.evict();
  }

  clear() {
    for (const file of [...this.entries.keys()]) this.delete(file);
  }
}

function describe(key: string, s: fs.Stats): StoredObject {
  // nginx's ETag: "<mtime in seconds, hex>-<size, hex>".
  const mtime = Math.floor(s.mtimeMs / 1000);
  return {
    size: s.size,
    contentType: contentTypeOfKey(key),
    etag: `"${mtime.toString(16)}-${s.size.toString(16)}"`,
    lastModified: new Date(mtime * 1000),
  };
}

/** A directory's entries, read a batch at a time (never all names at once); none if it is missing. */
async function* entries(dir: string): AsyncGenerator<fs.Dirent> {
  let handle;
  try {
    handle = await fsp.opendir(dir, { bufferSize: 256 });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  yield* handle;
}

function isMissing(error: unknown) {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
