// One show (/podcasts?show=<id>): cover, title, creator, description, its RSS feed (link and
// copy: podcast apps subscribe with it), the creator's own shortcuts (upload, edit, delete),
// then its episodes, newest number first. The header shows at once from the show list when
// it is cached.
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, Copy, Mic, Pencil, Podcast as PodcastIcon, Rss, Upload } from 'lucide-react';
import type { PodcastList, PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { useSession } from '@/web/session/use-session.ts';
import { isApiError } from '@/web/lib/api-client.ts';
import { ShareButton } from '@/web/features/sharing/index.ts';
import { DeleteWithConfirm } from './delete-confirm.tsx';
import {
  EPISODES_HEADING_ID,
  EpisodeRow,
  EpisodeRowsSkeleton,
  episodeListClass,
} from './episode-row.tsx';
import { creatorLabel } from './show-card.tsx';
import { isShowId, podcastKeys, useDeletePodcast, usePodcast } from './use-podcasts.ts';

const SKELETON_ROWS = 4;

function BackLink() {
  return (
    <Button asChild variant="ghost" className="-ml-3 mb-4">
      <Link to="/podcasts">
        <ArrowLeft aria-hidden="true" />
        All podcasts
      </Link>
    </Button>
  );
}

async function copyFeed(url: string) {
  try {
    await navigator.clipboard.writeText(url);
    toast.success('RSS feed link copied', { id: 'feed-copied', description: url });
  } catch {
    toast.error('Error', { id: 'feed-copied', description: 'Could not copy the RSS feed link' });
  }
}

function FeedLinks({ show }: { show: PodcastShowDto }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button asChild variant="outline" size="sm">
        <a href={show.feed_url} target="_blank" rel="noreferrer">
          <Rss aria-hidden="true" />
          RSS feed
        </a>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        aria-label="Copy RSS feed link"
        title="Copy the feed's address for a podcast app"
        onClick={() => void copyFeed(show.feed_url)}
      >
        <Copy aria-hidden="true" />
        Copy link
      </Button>
    </div>
  );
}

/** Whether the signed-in user created the show: display only, the server checks. */
function useIsCreator(show: PodcastShowDto | undefined): boolean {
  const { user, isArtist } = useSession();
  return Boolean(show && isArtist && user?.id === show.creator_id);
}

function DeleteShow({ show }: { show: PodcastShowDto }) {
  const navigate = useNavigate();
  const { mutateAsync } = useDeletePodcast(() => void navigate('/podcasts'));
  return (
    <DeleteWithConfirm
      label="Delete show"
      trigger="Delete show"
      title={podcastMessages.deleteShowTitle}
      description={`"${show.title}", all its episodes and their audio are removed for good, and its RSS feed stops.`}
      deleted={podcastMessages.showDeleted}
      failed={podcastMessages.deleteShowFailed}
      remove={() => mutateAsync(show.id)}
    />
  );
}

function OwnerLinks({ show }: { show: PodcastShowDto }) {
  if (!useIsCreator(show)) return null;
  const to = (tab: string) => `/podcast-upload?tab=${tab}&show=${encodeURIComponent(show.id)}`;
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="brand" size="sm">
        <Link to={to('episode')}>
          <Upload aria-hidden="true" />
          Upload episode
        </Link>
      </Button>
      <Button asChild variant="outline" size="sm">
        <Link to={to('edit')}>
          <Pencil aria-hidden="true" />
          Edit show
        </Link>
      </Button>
      <DeleteShow show={show} />
    </div>
  );
}

/**
 * To the show's creator only: what keeps podcast apps from taking the feed — links that
 * name localhost (PUBLIC_URL unset) and no owner e-mail (Apple asks for one).
 */
function FeedWarnings({ show, publicUrlSet }: { show: PodcastShowDto; publicUrlSet: boolean }) {
  const problems = [
    publicUrlSet ? null : podcastMessages.publicUrlUnset,
    show.owner_email ? null : podcastMessages.ownerEmailMissing,
  ].filter((p) => p !== null);
  if (problems.length === 0) return null;
  return (
    <div
      role="status"
      aria-label="Feed warnings"
      className="mb-8 space-y-1 rounded-xl border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm"
    >
      {problems.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  );
}

function ShowHeader({ show }: { show: PodcastShowDto }) {
  const count = show.episode_count;
  return (
    <header className="mb-8 flex flex-col gap-6 sm:flex-row sm:items-end">
      <CoverArt
        src={show.cover_art_url}
        lazy={false}
        className="size-40 shrink-0 rounded-xl bg-muted object-cover shadow-lg sm:size-48"
      />
      <div className="min-w-0 flex-1 space-y-3">
        <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          <PodcastIcon className="size-3.5" aria-hidden="true" />
          Podcast
        </p>
        <h2 id="show-heading" className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
          {show.title}
        </h2>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
          <span className="inline-flex items-center gap-1 font-medium text-foreground">
            <Mic className="size-3.5" aria-hidden="true" />
            {creatorLabel(show)}
          </span>
          <span aria-hidden="true">·</span>
          <span>{show.category}</span>
          <span aria-hidden="true">·</span>
          <span>
            {count} {count === 1 ? 'episode' : 'episodes'}
          </span>
          {show.explicit && (
            <Badge variant="secondary" title="Explicit content">
              Explicit
            </Badge>
          )}
        </p>
        {show.description && (
          <p className="max-w-3xl text-sm whitespace-pre-line text-muted-foreground">
            {show.description}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <FeedLinks show={show} />
          <ShareButton kind="show" id={show.id} title={show.title} className="h-8 px-3 text-xs" />
          <OwnerLinks show={show} />
        </div>
      </div>
    </header>
  );
}

function HeaderSkeleton() {
  return (
    <div aria-hidden="true" className="mb-8 flex flex-col gap-6 sm:flex-row sm:items-end">
      <Skeleton className="size-40 rounded-xl sm:size-48" />
      <div className="flex-1 space-y-3">
        <Skeleton className="h-3 w-20" />
        <Skeleton className="h-8 w-2/3" />
        <Skeleton className="h-4 w-1/3" />
      </div>
    </div>
  );
}

function NotFound() {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center"
    >
      <PodcastIcon className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">{podcastMessages.podcastNotFound}</p>
      <Button asChild variant="outline">
        <Link to="/podcasts">Browse podcasts</Link>
      </Button>
    </div>
  );
}

export function ShowView({ id }: { id: string }) {
  const client = useQueryClient();
  const { user } = useSession();
  const query = usePodcast(id, user?.id);
  const { data, isPending, isError, error, refetch, isFetching } = query;
  // The list already knows the header; only the episodes are then awaited.
  const listed = client.getQueryData<PodcastList>(podcastKeys.list)?.items.find((p) => p.id === id);
  const show = data?.podcast ?? listed;
  const missing = !isShowId(id) || (isError && isApiError(error) && error.status === 404);
  const isCreator = useIsCreator(show);

  return (
    <section
      aria-labelledby={show ? 'show-heading' : undefined}
      aria-label={show ? undefined : 'Podcast'}
      aria-busy={isPending && !missing}
      className="mx-auto max-w-5xl"
    >
      <BackLink />
      {missing ? (
        <NotFound />
      ) : isError && !show ? (
        <LoadFailed
          message={podcastMessages.loadPodcastFailed}
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : (
        <>
          {show ? <ShowHeader show={show} /> : <HeaderSkeleton />}
          {isCreator && data ? (
            <FeedWarnings show={data.podcast} publicUrlSet={data.public_url_set} />
          ) : null}
          <h3
            id={EPISODES_HEADING_ID}
            tabIndex={-1}
            className="mb-3 text-lg font-semibold outline-none"
          >
            Episodes
          </h3>
          {isError ? (
            <LoadFailed
              message={podcastMessages.loadEpisodesFailed}
              retrying={isFetching}
              onRetry={() => void refetch()}
            />
          ) : isPending ? (
            <EpisodeRowsSkeleton rows={SKELETON_ROWS} />
          ) : data.episodes.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
              <Mic className="size-8" aria-hidden="true" />
              <p className="font-medium text-foreground">No episodes yet</p>
              <p className="text-sm">New episodes of this show will appear here.</p>
            </div>
          ) : (
            <ol aria-label="Episodes" className={episodeListClass}>
              {data.episodes.map((episode) => (
                <EpisodeRow key={episode.id} episode={episode} canManage={isCreator} />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
