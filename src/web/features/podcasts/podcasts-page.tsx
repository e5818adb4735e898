// Spec §2 Podcasts: the list of shows (newest first), then the episodes of a chosen show.
// The chosen show lives in the URL (/podcasts?show=<id>): the RSS feed's channel link, a
// shared link and the back button all land on it.
import { useSearchParams } from 'react-router';
import { Podcast as PodcastIcon } from 'lucide-react';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { ShowCard, ShowCardsSkeleton, showGridClass } from './show-card.tsx';
import { ShowView } from './show-view.tsx';
import { usePodcasts } from './use-podcasts.ts';

const SKELETON_CARDS = 8;

function ShowList() {
  const { data: shows, isPending, isError, refetch, isFetching } = usePodcasts();
  return (
    <section aria-labelledby="podcasts-heading" aria-busy={isPending} className="mx-auto">
      <h2 id="podcasts-heading" className="mb-4 text-xl font-bold tracking-tight">
        All shows
      </h2>
      {isPending ? (
        <ShowCardsSkeleton count={SKELETON_CARDS} />
      ) : isError ? (
        <LoadFailed
          message={podcastMessages.loadPodcastsFailed}
          retrying={isFetching}
          onRetry={() => void refetch()}
        />
      ) : shows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <PodcastIcon className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No podcasts yet</p>
          <p className="text-sm">Shows from creators on Canto will appear here.</p>
        </div>
      ) : (
        <ul aria-label="Shows" className={showGridClass}>
          {shows.map((show) => (
            <ShowCard key={show.id} show={show} />
          ))}
        </ul>
      )}
    </section>
  );
}

export default function PodcastsPage() {
  const [params] = useSearchParams();
  const show = params.get('show');
  return show !== null ? <ShowView key={show} id={show} /> : <ShowList />;
}
