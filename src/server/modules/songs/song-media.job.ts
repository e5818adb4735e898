import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import {
  createMediaJob,
  enqueueMediaJob,
  jobScopedName as mediaJobScopedName,
  type MediaJobDeps,
  type MediaJobKind,
} from '../../media/media-job.ts';

/** The media job of one song (the migration that added it enqueues it by this name too). */
export const SONG_MEDIA_JOB = 'songs.media';
export type SongMediaPayload = { songId: string };

/** Songs' originals and outputs live in the music bucket (docs/decisions/0014). */
const SONG_MEDIA: MediaJobKind = {
  name: SONG_MEDIA_JOB,
  idField: 'songId',
  bucket: 'music',
  label: 'song',
};

/**
 * Enqueues a song's media job, in `tx` when given. One job per song at a time (the
 * singleton key): a second enqueue while one is queued or running does nothing.
 */
export async function enqueueSongMedia(jobs: JobQueue, songId: string, tx?: Db): Promise<void> {
  await enqueueMediaJob(jobs, SONG_MEDIA, songId, tx);
}

/** The temp file or object name of one output of a song's job (media/media-job.ts). */
export function jobScopedName(
  job: { id: string; songId: string },
  role: string,
  extension: string,
): string {
  return mediaJobScopedName(SONG_MEDIA_JOB, { id: job.id, itemId: job.songId }, role, extension);
}

/** A song's media job: the shared one (media/media-job.ts) on songs' rows and the music bucket. */
export function createSongMediaJob(deps: Omit<MediaJobDeps, 'kind'>) {
  return createMediaJob({ ...deps, kind: SONG_MEDIA });
}
