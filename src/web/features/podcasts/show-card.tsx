// A show in the podcasts grid: cover, title and creator; the whole card opens the show
// (/podcasts?show=<id>, the address the RSS feed's channel link points to).
import { Link } from 'react-router';
import type { PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';

export const showGridClass =
  'grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5 2xl:grid-cols-6';

export const creatorLabel = (show: Pick<PodcastShowDto, 'creator_name'>): string =>
  show.creator_name?.trim() || 'Unknown';

export const showHref = (id: string) => `/podcasts?show=${encodeURIComponent(id)}`;

export function ShowCard({ show }: { show: PodcastShowDto }) {
  return (
    <li data-testid="podcast-card">
      <Link
        to={showHref(show.id)}
        className="group block rounded-xl bg-card/60 p-3 outline-none transition-colors hover:bg-card focus-visible:ring-[3px] focus-visible:ring-ring/70"
      >
        <div className="aspect-square overflow-hidden rounded-lg bg-muted shadow-md">
          <CoverArt
            src={show.cover_art_url}
            className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
          />
        </div>
        <h3 className="mt-3 line-clamp-2 font-semibold break-words" title={show.title}>
          {show.title}
        </h3>
        <p className="truncate text-sm text-muted-foreground">{creatorLabel(show)}</p>
      </Link>
    </li>
  );
}

export function ShowCardsSkeleton({ count }: { count: number }) {
  return (
    <ul aria-hidden="true" data-testid="podcasts-loading" className={showGridClass}>
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="rounded-xl bg-card/60 p-3">
          <Skeleton className="aspect-square w-full rounded-lg" />
          <Skeleton className="mt-3 h-4 w-3/4" />
          <Skeleton className="mt-2 h-3 w-1/2" />
        </li>
      ))}
    </ul>
  );
}
