import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/client.ts';
import type { Job, JobHandler, JobInfo, JobQueue } from '../../jobs/job-queue.ts';
import type { Ffmpeg } from '../../media/ffmpeg.ts';
import { RENDITIONS, transcode, type RenditionFormat } from '../../media/renditions.ts';
import type { CrashPoint } from '../../storage/crash-point.ts';
import { MEDIA_TYPES, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import { demuxerOfKey } from './media-intake.ts';
import type { SongMediaRepository } from './song-media.repository.ts';

/** The media job of one song (the migration that added it enqueues it by this name too). */
export const SONG_MEDIA_JOB = 'songs.media';
export type SongMediaPayload = { songId: string };

type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type SongMediaJobDeps = {
  media: SongMediaRepository;
  storage: Storage;
  ffmpeg: Ffmpeg;
  /** `${DATA_DIR}/tmp`: `<uuid>.upload` files there are swept by the media reconciler. */
  tempDir: string;
  log: Log;
  /** Fault injection between the job's steps (CANTO_TEST_CRASH_AT; crash tests only). */
  crash?: CrashPoint;
};

/**
 * Enqueues a song's media job, in `tx` when given. One job per song at a time (the
 * singleton key): a second enqueue while one is queued or running does nothing.
 */
export async function enqueueSongMedia(jobs: JobQueue, songId: string, tx?: Db): Promise<void> {
  await jobs.enqueue(SONG_MEDIA_JOB, { songId } satisfies SongMediaPayload, {
    tx,
    singletonKey: songId,
  });
}

/** The largest rendition we store: 320 kbit/s for 4 hours is ~580 MB; nothing comes near. */
const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

/**
 * A name that is the same for every attempt of one job and different for every other job:
 * a re-run writes over what an interrupted attempt left (temp files and stored objects), and
 * a reprocess (a new job) never writes over files a client may have cached. A UUID-shaped
 * SHA-256 of the job, its song and the output's role, so it is a valid storage key (newKey's
 * form).
 */
export function jobScopedName(
  job: { id: string; songId: string },
  role: string,
  extension: string,
): string {
  const h = crypto
    .createHash('sha256')
    .update(`${SONG_MEDIA_JOB}\n${job.id}\n${job.songId}\n${role}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}.${extension}`;
}

/**
 * The media job (docs/decisions/0014): from the kept original, one ffmpeg run makes the
 * streaming renditions, the loudness and the waveform; each file is stored whole (storage
 * writes a temporary object and moves it into place), then one transaction points the song
 * at them and marks it ready. Idempotent: every name is the job's own (jobScopedName), so a
 * re-run after a crash writes over the same temp files and objects, and rows are keyed by
 * song and format. A song deleted meanwhile leaves nothing: the files just stored are
 * deleted again.
 */
export function createSongMediaJob(deps: SongMediaJobDeps): {
  run: JobHandler<SongMediaPayload>;
  onDead: (job: JobInfo) => Promise<void>;
} {
  const { media, storage, ffmpeg, log } = deps;
  let tempReady: Promise<unknown> | undefined;

  const discard = (objects: Array<[Bucket, string]>) => discardStored(storage, log, objects);

  async function run(job: Job<SongMediaPayload>): Promise<void> {
    const songId = job.payload?.songId;
    if (typeof songId !== 'string') throw new Error('songs.media job without a song id');
    const song = await media.source(songId);
    // Deleted since (its delete removed whatever was stored), or nothing of ours to encode.
    if (!song || !song.fileKey) return;
    const [bucket, key] = locateStored(song.fileKey, 'music');
    const demuxer = demuxerOfKey(key);
    if (!demuxer) throw new Error(`songs.media: no demuxer for ${key}`);

    // The song too: job ids start again with a new database, stored files may not.
    const scope = { id: job.id, songId };
    const waveformKey = jobScopedName(scope, 'waveform', 'json');
    // This job finished before (its worker died before recording that): nothing to do, and
    // nothing to risk — a failing re-run must not delete files the song points at.
    if (song.waveformKey === `music/${waveformKey}`) return;

    await (tempReady ??= fsp.mkdir(deps.tempDir, { recursive: true }));
    const temp = (role: string) => path.join(deps.tempDir, jobScopedName(scope, role, 'upload'));
    const input = temp('input');
    const outputs = Object.fromEntries(RENDITIONS.map((r) => [r.format, temp(r.format)])) as Record<
      RenditionFormat,
      string
    >;
    const removeTemps = () =>
      Promise.all([input, ...Object.values(outputs)].map((f) => fsp.rm(f, { force: true })));
    const stored: Array<[Bucket, string]> = [];
    try {
      await pipeline(await storage.read(bucket, key), fs.createWriteStream(input));
      deps.crash?.('media:input');
      const result = await transcode(
        ffmpeg,
        { input, demuxer, outputs, durationMs: song.durationMs ?? 0 },
        song.durationMs ?? 0,
        job.signal,
      );
      deps.crash?.('media:transcoded');

      const renditions = [];
      for (const r of RENDITIONS) {
        const objectKey = jobScopedName(scope, r.format, r.extension);
        const { size } = await storage.put(
          'music',
          objectKey,
          fs.createReadStream(outputs[r.format]),
          {
            contentType: r.contentType,
            maxBytes: MAX_OUTPUT_BYTES,
          },
        );
        stored.push(['music', objectKey]);
        renditions.push({
          format: r.format,
          codec: r.codec,
          mime: r.mime,
          bitrateKbps: r.bitrateKbps,
          fileUrl: `/media/music/${objectKey}`,
          fileKey: `music/${objectKey}`,
          bytes: size,
          // The audio is the original's, whose length was measured by decoding it.
          durationMs: song.durationMs ?? result.durationMs,
        });
      }
      await storage.put('music', waveformKey, Readable.from([JSON.stringify(result.waveform)]), {
        contentType: MEDIA_TYPES.json,
        maxBytes: 1024 * 1024,
      });
      stored.push(['music', waveformKey]);
      // The temp files are done with: gone before the song shows 'ready'.
      await removeTemps();
      deps.crash?.('media:stored');

      const done = await media.complete(songId, {
        renditions,
        loudness: result.loudness,
        waveform: { url: `/media/music/${waveformKey}`, key: `music/${waveformKey}` },
      });
      if (!done) {
        await discard(stored);
        return;
      }
      stored.length = 0;
      await discard(done.replaced.map((k) => locateStored(k, 'music')));
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
      const songId = (job.payload as Partial<SongMediaPayload> | null)?.songId;
      if (typeof songId !== 'string') return;
      await media.markFailed(songId);
      log.warn({ song: songId, job: job.id }, 'song media processing failed for good');
    },
  };
}
