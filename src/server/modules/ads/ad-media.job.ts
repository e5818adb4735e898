import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import {
  createMediaJob,
  enqueueMediaJob,
  type MediaJobDeps,
  type MediaJobKind,
} from '../../media/media-job.ts';

/** The media job of one ad's audio: the songs' job (media/media-job.ts) on ads. */
export const AD_MEDIA_JOB = 'ads.ad-media';

/**
 * An ad's audio and its renditions live in the music bucket (signed like songs). The job's
 * item is the stored audio file (`music/<key>`, ad-media.repository.ts), so a replaced file
 * gets its own job even while the old one runs.
 */
const AD_MEDIA: MediaJobKind = {
  name: AD_MEDIA_JOB,
  idField: 'audioKey',
  bucket: 'music',
  label: 'ad audio',
};

/** Enqueues the media job of an ad's stored audio, in `tx`; one per file at a time. */
export async function enqueueAdMedia(jobs: JobQueue, audioKey: string, tx?: Db): Promise<void> {
  await enqueueMediaJob(jobs, AD_MEDIA, audioKey, tx);
}

export function createAdMediaJob(deps: Omit<MediaJobDeps, 'kind'>) {
  return createMediaJob({ ...deps, kind: AD_MEDIA });
}
