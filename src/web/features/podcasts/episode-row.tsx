// One episode in a show's list: Play/Pause, its number, title, description, length and date,
// and the listener's state in it ('Played'; 'In progress' with the time left; nothing when
// new). Playing it hands the player an episode (resuming where it was left). The show's
// creator also sees its processing ('Processing…', or 'Processing failed' with Retry) and
// gets Delete (after a confirm).
import { Check, Pause, Play } from 'lucide-react';
import type { EpisodeDto } from '@/contracts/podcasts.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { ShareButton } from '@/web/features/sharing/index.ts';
import { DownloadEpisodeButton } from '@/web/features/downloads/index.ts';
import { AddToQueueButton } from '@/web/player/add-to-queue-button.tsx';
import { episodeToPlayable } from '@/web/player/playable.ts';
import { useNowPlaying, usePlayerControls } from '@/web/player/use-player.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { DeleteWithConfirm } from './delete-confirm.tsx';
import { EpisodeMediaStatus } from './episode-media-status.tsx';
import { episodeState, formatDay, formatLength } from './podcast-format.ts';
import { useDeleteEpisode } from './use-podcasts.ts';

/** The show page's "Episodes" heading, where focus lands after an episode is deleted. */
export const EPISODES_HEADING_ID = 'episodes-heading';

export const episodeListClass =
  'divide-y divide-border/60 overflow-hidden rounded-xl border bg-card/40';
const rowClass = 'flex items-start gap-3 px-3 py-4 sm:gap-4 sm:px-4';

function EpisodeStateLine({ episode }: { episode: EpisodeDto }) {
  const state = episodeState(episode.progress, episode.duration);
  if (state.kind === 'new') return null;
  if (state.kind === 'played') {
    return (
      <p
        data-testid="episode-state"
        className="flex items-center gap-1 text-xs font-medium text-muted-foreground"
      >
        <Check className="size-3.5" aria-hidden="true" />
        Played
      </p>
    );
  }
  return (
    <div data-testid="episode-state" className="flex items-center gap-2 text-xs font-medium">
      <span className="text-ring">In progress</span>
      {state.fraction !== null && (
        <span
          aria-hidden="true"
          className="h-1 w-16 overflow-hidden rounded-full bg-foreground/15 sm:w-24"
        >
          <span
            className="block h-full rounded-full bg-primary"
            style={{ width: `${Math.round(state.fraction * 100)}%` }}
          />
        </span>
      )}
      {state.left && <span className="text-muted-foreground">{state.left}</span>}
    </div>
  );
}

function DeleteEpisode({ episode }: { episode: EpisodeDto }) {
  const { mutateAsync } = useDeleteEpisode();
  // The player is left alone: an episode playing now keeps playing what the browser has.
  return (
    <DeleteWithConfirm
      label={`Delete ${episode.title}`}
      title={podcastMessages.deleteEpisodeTitle}
      description={`"${episode.title}", its audio and everyone's progress in it are removed for good.`}
      deleted={podcastMessages.episodeDeleted}
      failed={podcastMessages.deleteEpisodeFailed}
      remove={() => mutateAsync(episode)}
      focusAfterDelete={() => document.getElementById(EPISODES_HEADING_ID)}
      className="mt-2 text-muted-foreground hover:text-destructive"
    />
  );
}

/** `canManage`: the caller created the show (display only; the server checks). */
export function EpisodeRow({
  episode,
  canManage = false,
}: {
  episode: EpisodeDto;
  canManage?: boolean;
}) {
  const { current, playing } = useNowPlaying();
  const { load } = usePlayerControls();
  const item = episodeToPlayable(episode);
  const isCurrent = current?.id === episode.id;
  const isPlaying = isCurrent && playing;
  const length = formatLength(episode.duration);
  const day = formatDay(episode.published_at);

  return (
    <li
      data-testid="episode"
      aria-current={isCurrent ? 'true' : undefined}
      className={cn(rowClass, 'transition-colors hover:bg-card', isCurrent && 'bg-card')}
    >
      <Button
        size="icon"
        className="brand-gradient mt-1 size-10 shrink-0 rounded-full text-white hover:opacity-90"
        aria-label={`${isPlaying ? 'Pause' : 'Play'} ${episode.title}`}
        onClick={() => load(item)}
      >
        {isPlaying ? (
          <Pause className="size-4 fill-current" aria-hidden="true" />
        ) : (
          <Play className="ml-0.5 size-4 fill-current" aria-hidden="true" />
        )}
      </Button>
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-xs text-muted-foreground">
          <span>Episode {episode.episode_number}</span>
          {day && <span> · {day}</span>}
          {length && <span> · {length}</span>}
        </p>
        <h3 className="font-semibold break-words">{episode.title}</h3>
        {episode.description && (
          <p className="line-clamp-3 text-sm whitespace-pre-line text-muted-foreground">
            {episode.description}
          </p>
        )}
        <EpisodeStateLine episode={episode} />
        {canManage && <EpisodeMediaStatus episode={episode} />}
      </div>
      <AddToQueueButton item={item} className="mt-2" />
      <ShareButton
        look="icon"
        kind="episode"
        id={episode.id}
        title={episode.title}
        // The link opens the episode's show; saying which spares the page a search.
        hint={{ show: episode.podcast_id }}
        className="mt-2"
      />
      <DownloadEpisodeButton episode={episode} className="mt-2" />
      {canManage && <DeleteEpisode episode={episode} />}
    </li>
  );
}

export function EpisodeRowsSkeleton({ rows }: { rows: number }) {
  return (
    <ol aria-hidden="true" data-testid="episodes-loading" className={episodeListClass}>
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className={rowClass}>
          <Skeleton className="size-10 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-3 w-1/4" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-3/4" />
          </div>
        </li>
      ))}
    </ol>
  );
}
