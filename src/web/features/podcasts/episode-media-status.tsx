// What the media pipeline is doing with an episode, for its show's creator (as an artist's
// own song card shows it): nothing once ready, 'Processing…' until the streaming files exist,
// and a failure with Retry when the job gave up. Listeners play the original meanwhile.
import { toast } from 'sonner';
import { AlertTriangle, LoaderCircle, RotateCw } from 'lucide-react';
import type { EpisodeDto } from '@/contracts/podcasts.contract.ts';
import { toUserMessage } from '@/core/error-messages.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { useReprocessEpisode } from './use-podcasts.ts';

export function EpisodeMediaStatus({ episode }: { episode: EpisodeDto }) {
  const { mutate, isPending } = useReprocessEpisode();

  if (episode.status === 'ready') return null;

  if (episode.status === 'processing') {
    return (
      <p
        data-testid="episode-media-status"
        className="flex items-center gap-1.5 text-xs text-muted-foreground"
      >
        <LoaderCircle className="size-3.5 shrink-0 animate-spin" aria-hidden="true" />
        Processing…
      </p>
    );
  }

  const retry = () =>
    mutate(episode, {
      onError: (e) =>
        toast.error(podcastMessages.reprocessEpisodeFailed, {
          description: errorMessage(e, toUserMessage(e)),
        }),
    });

  return (
    <div data-testid="episode-media-status" className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <p className="flex items-center gap-1.5 text-xs text-red-400">
        <AlertTriangle className="size-3.5 shrink-0" aria-hidden="true" />
        Processing failed
      </p>
      <Button
        variant="outline"
        size="sm"
        className="h-7 shrink-0 px-2 text-xs"
        aria-label={`Retry processing ${episode.title}`}
        disabled={isPending}
        onClick={retry}
      >
        {isPending ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <RotateCw aria-hidden="true" />
        )}
        Retry
      </Button>
    </div>
  );
}
