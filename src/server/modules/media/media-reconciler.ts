import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../../core/clock.ts';
import { UUID_PATTERN } from '../../../core/uuid.ts';
import {
  BUCKETS,
  isValidKey,
  storedLocation,
  type Bucket,
  type Storage,
} from '../../storage/storage.ts';
import type { MediaReference, MediaReferencesRepository } from './media-references.repository.ts';
import type { Log } from '../../log.ts';

export type ReconcileReport = {
  /** Upload temp files (`DATA_DIR/tmp/*.upload`) removed. */
  tempFiles: number;
  /** Unfinished puts removed (local `.part` files, S3 multipart uploads). */
  unfinished: number;
  /** Stored files no row referenced, deleted. */
  orphans: number;
  /** Rows whose file was gone, deleted or cleared. */
  repaired: number;
  /** Why a step did nothing although it had work: see `tooMany`. */
  refused: string[];
  ms: number;
};

export type MediaReconciler = {
  /** One pass; never runs two at once (a second caller gets the running pass). */
  runOnce(): Promise<ReconcileReport>;
  /** A pass now, then one every `intervalSeconds` (none when 0) until `stop`. */
  start(): void;
  /** Stops the timer and waits for a running pass to end (it stops at its next step). */
  stop(): Promise<void>;
};

// An upload writes `<uuid>.upload` into its temp dir (media/upload-form.ts).
const TEMP_FILE = /^[0-9a-f-]{36}\.upload$/;
// A UUID, and after it the timestamp of an owned key (`<owner>/<timestamp>.<ext>`) if any.
const UUID = new RegExp(`${UUID_PATTERN}(?:/([0-9]{1,16})\\.)?`, 'g');
// Objects Canto made: a UUID name (newKey) or one under its owner's UUID (ownedKey). Any
// other valid-looking key is left alone.
const MADE_KEY = new RegExp(`^${UUID_PATTERN}(?:/[0-9]{1,16})?\\.`);
/** Candidates looked at per pass in each direction; the rest wait for the next pass. */
const MAX_CANDIDATES = 10_000;
/** Files re-checked against the rows per query before they go. */
const BATCH = 500;

/**
 * Crash debris is one or two files per crash. Many more, and more than a quarter of what
 * there is, means the process sees the wrong database or an unmounted or wrong store
 * (DATABASE_URL, DATA_DIR, S3_BUCKET): deleting would destroy what the right one needs.
 */
function tooMany(count: number, total: number): boolean {
  return count > 20 && count > total / 4;
}

/**
 * Makes storage and the rows agree after crashes (docs/decisions/0012). An upload stores its
 * files first and inserts the row last; a delete removes the row first and the files after.
 * So a process killed half way leaves only files no row references, never a row without its
 * file: upload temp files, unfinished puts, and stored files whose INSERT never ran (or whose
 * row was deleted). Each pass, at start and then periodically, removes those once they are
 * older than `ageSeconds`: a younger one may belong to an upload still in flight, whose row
 * is about to be inserted. Before a file goes, the rows are asked once more.
 *
 * A row whose file is nevertheless missing (a file deleted by hand, a restore of the database
 * without its media, a power cut that lost a file the row outlived) is repaired: a song or
 * episode without its audio cannot play, so its row goes (as if its owner had deleted it);
 * a missing cover or avatar is cleared, and the app shows its placeholder.
 */
export function createMediaReconciler(deps: {
  storage: Storage;
  references: MediaReferencesRepository;
  /** Where uploads keep their temp files (`DATA_DIR/tmp`). */
  tempDir: string;
  clock: Clock;
  log: Log;
  ageSeconds: number;
  intervalSeconds: number;
}): MediaReconciler {
  const { storage, references, log } = deps;
  let running: Promise<ReconcileReport> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  class Stopped extends Error {}
  const checkStopped = () => {
    if (stopped) throw new Stopped();
  };

  async function sweepTemp(cutoff: Date): Promise<number> {
    let removed = 0;
    let dir;
    try {
      dir = await fsp.opendir(deps.tempDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    for await (const entry of dir) {
      if (!entry.isFile() || !TEMP_FILE.test(entry.name)) continue;
      const file = path.join(deps.tempDir, entry.name);
      const s = await fsp.stat(file).catch(() => null);
      // An upload still receiving writes to its file, which keeps its mtime young.
      if (!s || s.mtime >= cutoff) continue;
      await fsp.rm(file, { force: true });
      removed++;
    }
    return removed;
  }

  async function pass(): Promise<ReconcileReport> {
    const started = Date.now();
    const cutoff = new Date(deps.clock.now().getTime() - deps.ageSeconds * 1000);
    const report: ReconcileReport = {
      tempFiles: 0,
      unfinished: 0,
      orphans: 0,
      repaired: 0,
      refused: [],
      ms: 0,
    };
    report.tempFiles = await sweepTemp(cutoff);
    checkStopped();
    report.unfinished = await storage.sweepUnfinished(cutoff);
    checkStopped();

    // Every name a row mentions. Read before the listing: a file stored after this read is
    // young when listed, so it is not taken for an orphan.
    const referenced = new NameSet();
    for await (const ref of references.all()) {
      for (const name of namesIn(ref)) referenced.add(name);
    }
    referenced.seal();
    checkStopped();

    const present = new NameSet();
    const unreferenced: Array<[Bucket, string]> = [];
    let listed = 0;
    let unreferencedCount = 0;
    for (const bucket of BUCKETS) {
      for await (const key of storage.list(bucket)) {
        if (!MADE_KEY.test(key)) continue;
        listed++;
        present.add(nameOf(key));
        if (referenced.has(nameOf(key))) continue;
        if (derivedOfReferenced(bucket, key, referenced)) continue;
        unreferencedCount++;
        if (unreferenced.length < MAX_CANDIDATES) unreferenced.push([bucket, key]);
      }
      checkStopped();
    }
    present.seal();

    if (tooMany(unreferencedCount, listed)) {
      report.refused.push(
        `${unreferencedCount} of ${listed} stored files are referenced by no row: is this the right database? None deleted.`,
      );
    } else {
      report.orphans = await deleteOrphans(unreferenced, cutoff);
    }
    checkStopped();
    await repairMissing(present, report);
    report.ms = Date.now() - started;
    return report;
  }

  async function deleteOrphans(candidates: Array<[Bucket, string]>, cutoff: Date) {
    const old: Array<[Bucket, string]> = [];
    for (const [bucket, key] of candidates) {
      const s = await storage.stat(bucket, key);
      if (s && s.lastModified < cutoff) old.push([bucket, key]);
    }
    let deleted = 0;
    for (let i = 0; i < old.length; i += BATCH) {
      checkStopped();
      const batch = old.slice(i, i + BATCH);
      // The last look: a row inserted since the first read protects its files.
      const mentioned = await references.mentioned(batch.map(([bucket, key]) => ({ bucket, key })));
      for (const [bucket, key] of batch) {
        if (mentioned.has(`${bucket}/${key}`)) continue;
        await storage.delete(bucket, key);
        log.info({ bucket, key }, 'deleted a stored file no row references');
        deleted++;
      }
    }
    return deleted;
  }

  async function repairMissing(present: NameSet, report: ReconcileReport) {
    const missing: Array<{ ref: MediaReference; bucket: Bucket; key: string }> = [];
    let checked = 0;
    let missingCount = 0;
    for await (const ref of references.all()) {
      const location = locate(ref);
      if (!location) continue;
      checked++;
      if (present.has(nameOf(location.key))) continue;
      missingCount++;
      if (missing.length < MAX_CANDIDATES) missing.push({ ref, ...location });
    }
    checkStopped();
    if (tooMany(missingCount, checked)) {
      report.refused.push(
        `${missingCount} of ${checked} rows point at files the store does not have: is this the right store? No row changed.`,
      );
      return;
    }
    for (const { ref, bucket, key } of missing) {
      checkStopped();
      // Stored after the listing (by the upload that inserted this row since) is present.
      if (await storage.exists(bucket, key)) continue;
      if (!(await references.repair(ref))) continue;
      report.repaired++;
      log.warn(
        { column: ref.column, id: ref.id, bucket, key, action: ref.whenMissing },
        'a row pointed at a file that is gone',
      );
    }
  }

  function runOnce(): Promise<ReconcileReport> {
    running ??= pass().finally(() => (running = undefined));
    return running;
  }

  async function scheduled(first: boolean) {
    try {
      const report = await runOnce();
      const changed = report.tempFiles + report.unfinished + report.orphans + report.repaired;
      if (report.refused.length) log.error({ ...report }, 'media reconciliation refused to act');
      else if (first || changed) log.info({ ...report }, 'media reconciled');
      else log.debug({ ...report }, 'media reconciled');
    } catch (error) {
      if (!(error instanceof Stopped)) log.error({ err: error }, 'media reconciliation failed');
    }
    if (!stopped && deps.intervalSeconds > 0) {
      timer = setTimeout(() => void scheduled(false), deps.intervalSeconds * 1000);
      timer.unref();
    }
  }

  return {
    runOnce,
    start() {
      stopped = false;
      void scheduled(true);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

/**
 * A key's name, without the extension, as 64 bits: its UUID's first 64, mixed with the
 * timestamp of an owned key, so each of an owner's files has a name of its own.
 */
function nameOf(key: string): bigint {
  const owned = /^[^/]{36}\/([0-9]+)\./.exec(key);
  return named(key, owned?.[1]);
}

const named = (uuid: string, timestamp: string | undefined) =>
  timestamp === undefined ? prefix(uuid) : prefix(uuid) ^ BigInt(timestamp);

// A cover's scaled copy (cover-sizes.ts): `<cover's uuid>/<side>.jpg`, and a rendition's
// opening clip (audio-clips.ts): `<rendition's uuid>/<seconds>.webm`; at most four digits
// where an owned key's timestamp has thirteen.
const DERIVED: Partial<Record<Bucket, RegExp>> = {
  'cover-art': /^([0-9a-f-]{36})\/[0-9]{1,4}\.jpg$/,
  music: /^([0-9a-f-]{36})\/[0-9]{1,4}\.webm$/,
};

/** Whether `key` is made from a file some row still names (kept as long as it). */
function derivedOfReferenced(bucket: Bucket, key: string, referenced: NameSet): boolean {
  const owner = DERIVED[bucket]?.exec(key)?.[1];
  return owner !== undefined && referenced.has(prefix(owner));
}

/** The UUIDs a row mentions anywhere in its URL or key: all of them protect their files. */
function namesIn(ref: MediaReference): bigint[] {
  const text = `${ref.url ?? ''} ${ref.key ?? ''}`.toLowerCase();
  // An owned key's owner alone is named too: an extra name can only keep a file.
  return [...text.matchAll(UUID)].flatMap((m) =>
    m[1] === undefined ? [prefix(m[0])] : [prefix(m[0]), named(m[0], m[1])],
  );
}

/** Where the row's file is: its `/media/<bucket>/<key>` URL, else its key column. */
function locate(ref: MediaReference): { bucket: Bucket; key: string } | null {
  const stored = storedLocation(ref.url);
  if (stored) return made(stored.bucket, stored.key);
  if (ref.url || !ref.key) return null; // an external URL: not ours to check
  const slash = ref.key.indexOf('/');
  return slash < 0
    ? made(ref.bucket, ref.key)
    : made(ref.key.slice(0, slash), ref.key.slice(slash + 1));
}

function made(bucket: string, key: string): { bucket: Bucket; key: string } | null {
  return (BUCKETS as readonly string[]).includes(bucket) && MADE_KEY.test(key) && isValidKey(key)
    ? { bucket: bucket as Bucket, key }
    : null;
}

/**
 * A set of names (nameOf) in one sorted typed array: 8 bytes a name, where a Set of strings
 * costs ~100 (a million songs have two million files). Two names sharing 64 bits would count
 * as one; that can only keep a file, never delete one.
 */
class NameSet {
  private items = new BigUint64Array(1024);
  private size = 0;

  add(name: bigint) {
    if (this.size === this.items.length) {
      const grown = new BigUint64Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.size++] = name;
  }

  seal() {
    this.items = this.items.slice(0, this.size).sort();
  }

  has(want: bigint): boolean {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.items[mid]!;
      if (v === want) return true;
      if (v < want) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

const prefix = (uuid: string) =>
  BigInt(`0x${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(14, 18)}`);
