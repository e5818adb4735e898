import { AppError, ErrorCode } from '../../../core/errors.ts';
import { podcastMessages } from '../../../core/validation/podcast.rules.ts';
import type { PodcastsRepository, ShowRow } from './podcasts.repository.ts';

/**
 * The show, if `userId` created it: only its creator may change it or add episodes, whatever the
 * client shows (docs/decisions/0018). Checked before a request's body is read, so a refused upload
 * stores nothing.
 */
export async function ownedShow(
  shows: Pick<PodcastsRepository, 'findById'>,
  userId: string,
  podcastId: string,
): Promise<ShowRow> {
  const show = await shows.findById(podcastId);
  if (!show) throw new AppError(ErrorCode.notFound, podcastMessages.podcastNotFound);
  if (show.creatorId !== userId)
    throw new AppError(ErrorCode.forbidden, podcastMessages.notCreator);
  return show;
}
