// What the media pipeline is doing with an episode, for its show's creator (as an artist's
// own song card shows it): nothing once ready, 'Processing…' until the streaming files exist,
// and a failure with Retry when the job gave up. Listeners play the original meanwhile.
import { toast } from 'sonner';
import type { EpisodeDto } from '@/contracts/podcasts.contract.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { MediaProcessingStatus } from '@/web/components/upload/media-processing-status.tsx';
import { useReprocessEpisode } from './use-podcasts.ts';

export function EpisodeMediaStatus({ episode }: { episode: EpisodeDto }) {
  const { mutate, isPending } = useReprocessEpisode();
  return (
    <MediaProcessingStatus
      status={episode.status}
      title={episode.title}
      retrying={isPending}
      onRetry={() =>
        mutate(episode, {
          onError: (e) =>
            toast.error(podcastMessages.reprocessEpisodeFailed, {
              description: errorMessage(e),
            }),
        })
      }
      testId="episode-media-status"
    />
  );
}
