import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/client.ts';
import type { Job, JobHandler, JobInfo, JobQueue } from '../jobs/job-queue.ts';
import type { CrashPoint } from '../storage/crash-point.ts';
import { MEDIA_TYPES, type Bucket, type Storage } from '../storage/storage.ts';
import { discardStored, locateStored } from '../storage/stored-objects.ts';
import type { Ffmpeg } from './ffmpeg.ts';
import { demuxerOfKey } from './media-intake.ts';
import { RENDITIONS, transcode, type RenditionFormat } from './renditions.ts';
import type { Loudness } from './loudness.ts';
import type { Log } from '../log.ts';

/*
 * One media job for every kind of uploaded audio (docs/decisions/0014, 0018, 0023): a song's,
 * a podcast episode's and an ad's are the same steps on different rows and buckets. A feature
 * gives it a job name, the payload field holding its item's id, the bucket its files live
 * in, and its rows (media-rows.repository.ts configured on its own tables).
 */

/** What the job needs to know of the row it processes. */
export type MediaSource = {
  id: string;
  /** The kept original, `<bucket>/<key>` (a bare key is in the job's bucket). */
  fileKey: string | null;
  durationMs: number | null;
  waveformKey: string | null;
};

/** One stored rendition, as its row keeps it (the feature adds its own parent id). */
export type NewRendition = {
  format: string;
  codec: string;
  mime: string;
  bitrateKbps: number;
  fileUrl: string;
  fileKey: string;
  bytes: number;
  durationMs: number;
};

export type MediaOutcome = {
  renditions: NewRendition[];
  loudness: Loudness | null;
  waveform: { url: string; key: string };
};

/** A feature's rows, as the job reads and writes them. */
export type MediaJobPort = {
  source(id: string): Promise<MediaSource | null>;
  /**
   * Stores a finished job's outcome and marks the row ready, in one transaction under the
   * row's lock. Null when the row is gone (its files are then the job's to delete);
   * otherwise the storage keys this replaced.
   */
  complete(id: string, outcome: MediaOutcome): Promise<{ replaced: string[] } | null>;
  /** The job is dead: the row shows 'failed' (only if it was still 'processing'). */
  markFailed(id: string): Promise<void>;
};

export type MediaJobKind = {
  /** The queue's job name, e.g. 'songs.media'. */
  name: string;
  /** The payload field holding the row's id, e.g. 'songId'. */
  idField: string;
  /** Where the original is and the outputs go. */
  bucket: Bucket;
  /** The row's name in logs ('song', 'episode'). */
  label: string;
};

export type MediaJobDeps = {
  kind: MediaJobKind;
  rows: MediaJobPort;
  storage: Storage;
  ffmpeg: Ffmpeg;
  /** `${DATA_DIR}/tmp`: `<uuid>.upload` files there are swept by the media reconciler. */
  tempDir: string;
  log: Log;
  /** Fault injection between the job's steps (crash tests only, through buildApp's deps). */
  crash?: CrashPoint;
};

/**
 * Enqueues a row's media job, in `tx` when given. One job per row at a time (the singleton
 * key): a second enqueue while one is queued or running does nothing.
 */
export async function enqueueMediaJob(
  jobs: JobQueue,
  kind: Pick<MediaJobKind, 'name' | 'idField'>,
  id: string,
  tx?: Db,
): Promise<void> {
  await jobs.enqueue(kind.name, { [kind.idField]: id }, { tx, singletonKey: id });
}

/**
 * Registers a kind's media job on the queue (a dead job marks its row failed) and gives the
 * way to enqueue one, in `tx` when given. Every kind shares one pool of `concurrency` slots
 * (MEDIA_WORKERS counts media jobs of all kinds; docs/decisions/0028).
 */
export function registerMediaJob(
  jobs: JobQueue,
  deps: MediaJobDeps & { concurrency: number },
): (id: string, tx?: Db) => Promise<void> {
  const job = createMediaJob(deps);
  jobs.register(deps.kind.name, job.run, {
    concurrency: deps.concurrency,
    pool: { name: MEDIA_JOB_POOL, size: deps.concurrency },
    onDead: job.onDead,
  });
  return (id, tx) => enqueueMediaJob(jobs, deps.kind, id, tx);
}

/** The job pool every kind of media job shares. */
export const MEDIA_JOB_POOL = 'media';

/** The largest rendition we store: 320 kbit/s for 4 hours is ~580 MB; nothing comes near. */
const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

/**
 * A name that is the same for every attempt of one job and different for every other job:
 * a re-run writes over what an interrupted attempt left (temp files and stored objects), and
 * a reprocess (a new job) never writes over files a client may have cached. A UUID-shaped
 * SHA-256 of the job's name and id, its row and the output's role, so it is a valid storage
 * key (newKey's form).
 */
export function jobScopedName(
  jobName: string,
  job: { id: string; itemId: string },
  role: string,
  extension: string,
): string {
  const h = crypto
    .createHash('sha256')
    .update(`${jobName}\n${job.id}\n${job.itemId}\n${role}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}.${extension}`;
}

/**
 * The media job (docs/decisions/0014): from the kept original, one ffmpeg run makes the
 * streaming renditions, the loudness and the waveform; each file is stored whole (storage
 * writes a temporary object and moves it into place), then one transaction points the row
 * at them and marks it ready. Idempotent: every name is the job's own (jobScopedName), so a
 * re-run after a crash writes over the same temp files and objects, and rows are keyed by
 * parent and format. A row deleted meanwhile leaves nothing: the files just stored are
 * deleted again.
 */
export function createMediaJob(deps: MediaJobDeps): {
  run: JobHandler<Record<string, unknown>>;
  onDead: (job: JobInfo) => Promise<void>;
} {
  const { kind, rows, storage, ffmpeg, log } = deps;
  const { bucket } = kind;
  let tempReady: Promise<unknown> | undefined;

  const discard = (objects: Array<[Bucket, string]>) => discardStored(storage, log, objects);
  const idOf = (payload: unknown) => (payload as Record<string, unknown> | null)?.[kind.idField];

  async function run(job: Job<Record<string, unknown>>): Promise<void> {
    const id = idOf(job.payload);
    if (typeof id !== 'string') throw new Error(`${kind.name} job without a ${kind.idField}`);
    const item = await rows.source(id);
    // Deleted since (its delete removed whatever was stored), or nothing of ours to encode.
    if (!item || !item.fileKey) return;
    const [sourceBucket, key] = locateStored(item.fileKey, bucket);
    const demuxer = demuxerOfKey(key);
    if (!demuxer) throw new Error(`${kind.name}: no demuxer for ${key}`);

    // The row too: job ids start again with a new database, stored files may not.
    const scope = { id: job.id, itemId: id };
    const named = (role: string, extension: string) =>
      jobScopedName(kind.name, scope, role, extension);
    const waveformKey = named('waveform', 'json');
    // This job finished before (its worker died before recording that): nothing to do, and
    // nothing to risk — a failing re-run must not delete files the row points at.
    if (item.waveformKey === `${bucket}/${waveformKey}`) return;

    await (tempReady ??= fsp.mkdir(deps.tempDir, { recursive: true }));
    const temp = (role: string) => path.join(deps.tempDir, named(role, 'upload'));
    const input = temp('input');
    const outputs = Object.fromEntries(RENDITIONS.map((r) => [r.format, temp(r.format)])) as Record<
      RenditionFormat,
      string
    >;
    const removeTemps = () =>
      Promise.all([input, ...Object.values(outputs)].map((f) => fsp.rm(f, { force: true })));
    const stored: Array<[Bucket, string]> = [];
    try {
      await pipeline(await storage.read(sourceBucket, key), fs.createWriteStream(input));
      deps.crash?.('media:input');
      const result = await transcode(
        ffmpeg,
        { input, demuxer, outputs, durationMs: item.durationMs ?? 0 },
        item.durationMs ?? 0,
        job.signal,
      );
      deps.crash?.('media:transcoded');

      const renditions: NewRendition[] = [];
      for (const r of RENDITIONS) {
        const objectKey = named(r.format, r.extension);
        const { size } = await storage.put(
          bucket,
          objectKey,
          fs.createReadStream(outputs[r.format]),
          { contentType: r.contentType, maxBytes: MAX_OUTPUT_BYTES },
        );
        stored.push([bucket, objectKey]);
        renditions.push({
          format: r.format,
          codec: r.codec,
          mime: r.mime,
          bitrateKbps: r.bitrateKbps,
          fileUrl: `/media/${bucket}/${objectKey}`,
          fileKey: `${bucket}/${objectKey}`,
          bytes: size,
          // The audio is the original's, whose length was measured by decoding it.
          durationMs: item.durationMs ?? result.durationMs,
        });
      }
      await storage.put(bucket, waveformKey, Readable.from([JSON.stringify(result.waveform)]), {
        contentType: MEDIA_TYPES.json,
        maxBytes: 1024 * 1024,
      });
      stored.push([bucket, waveformKey]);
      // The temp files are done with: gone before the row shows 'ready'.
      await removeTemps();
      deps.crash?.('media:stored');

      const done = await rows.complete(id, {
        renditions,
        loudness: result.loudness,
        waveform: { url: `/media/${bucket}/${waveformKey}`, key: `${bucket}/${waveformKey}` },
      });
      if (!done) {
        await discard(stored);
        return;
      }
      stored.length = 0;
      await discard(done.replaced.map((k) => locateStored(k, bucket)));
    } catch (error) {
      // Nothing points at these yet; a re-run would write them again under the same names.
      await discard(stored);
      throw error;
    } finally {
      await removeTemps();
    }
  }

  return {
    run,
    async onDead(job) {
      const id = idOf(job.payload);
      if (typeof id !== 'string') return;
      await rows.markFailed(id);
      log.warn({ [kind.label]: id, job: job.id }, `${kind.label} media processing failed for good`);
    },
  };
}
