import type { SyntheticEvent } from 'react';
import type { Song } from '@/web/hooks/use-home-songs.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';

export const PLACEHOLDER_COVER = '/placeholder.svg';

/** Spec §2: artist name, else 'Artist' + first 8 chars of artist_id, else 'Unknown'. */
export function artistLabel(song: Pick<Song, 'artist' | 'artist_id'>): string {
  if (song.artist) return song.artist;
  if (song.artist_id) return `Artist ${song.artist_id.slice(0, 8)}`;
  return 'Unknown';
}

function fallbackCover(e: SyntheticEvent<HTMLImageElement>) {
  const img = e.currentTarget;
  if (!img.src.endsWith(PLACEHOLDER_COVER)) img.src = PLACEHOLDER_COVER;
}

export function SongCard({ song }: { song: Song }) {
  return (
    <article className="group rounded-xl bg-card/60 p-3 transition-colors hover:bg-card">
      <div className="relative aspect-square overflow-hidden rounded-lg bg-muted shadow-md">
        <img
          src={song.cover_art_url || PLACEHOLDER_COVER}
          alt=""
          loading="lazy"
          onError={fallbackCover}
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
      </div>
      <h3 className="mt-3 truncate text-sm font-semibold" title={song.title}>
        {song.title}
      </h3>
      <p className="truncate text-xs text-muted-foreground">{artistLabel(song)}</p>
    </article>
  );
}

export function SongCardSkeleton() {
  return (
    <div className="rounded-xl bg-card/60 p-3" aria-hidden="true">
      <Skeleton className="aspect-square w-full rounded-lg" />
      <Skeleton className="mt-3 h-4 w-3/4" />
      <Skeleton className="mt-2 h-3 w-1/2" />
    </div>
  );
}

/** 2 to 6 columns by the width the grid actually has (spec §2); wrap it in `@container`. */
export const songGridClass =
  'grid grid-cols-2 gap-3 @lg:grid-cols-3 @3xl:grid-cols-4 @5xl:grid-cols-6 @lg:gap-4';
