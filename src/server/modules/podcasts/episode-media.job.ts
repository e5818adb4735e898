import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import {
  createMediaJob,
  enqueueMediaJob,
  type MediaJobDeps,
  type MediaJobKind,
} from '../../media/media-job.ts';

/** The media job of one podcast episode: the songs' job (media/media-job.ts) on episodes. */
export const EPISODE_MEDIA_JOB = 'podcasts.episode-media';

/** Episodes' originals and outputs live in the podcasts bucket (signed like music). */
const EPISODE_MEDIA: MediaJobKind = {
  name: EPISODE_MEDIA_JOB,
  idField: 'episodeId',
  bucket: 'podcasts',
  label: 'episode',
};

/** Enqueues an episode's media job, in `tx` when given; one per episode at a time. */
export async function enqueueEpisodeMedia(
  jobs: JobQueue,
  episodeId: string,
  tx?: Db,
): Promise<void> {
  await enqueueMediaJob(jobs, EPISODE_MEDIA, episodeId, tx);
}

export function createEpisodeMediaJob(deps: Omit<MediaJobDeps, 'kind'>) {
  return createMediaJob({ ...deps, kind: EPISODE_MEDIA });
}
