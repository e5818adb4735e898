// A song as a card in a grid (spec §2 song cards): cover with the play button, title and
// artist, then what it is handed: the actions beside the title (like, add to playlist, add to
// queue), a menu over the cover's corner, a line under it. The list that renders the card
// composes those and wires the play button; the card imports no feature and not the player.
import type { ReactNode } from 'react';
import { Pause, Play } from 'lucide-react';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { ArtistLink } from './artist-link.tsx';
import { CoverArt } from './cover-art.tsx';
import { artistLabel, sourceLabel } from './song-display.ts';
import { playLabel, type SongPlayback } from './song-playback.ts';

/** Where a card's `menu` sits: over the cover's top right corner. */
export const songCardMenuClass =
  'absolute top-2 right-2 size-8 rounded-full bg-black/60 text-white backdrop-blur-sm hover:bg-black/80 hover:text-white';

export function SongCard({
  song,
  playback,
  actions,
  menu,
  footer,
}: {
  song: SongDto;
  playback: SongPlayback;
  /** Beside the title, e.g. Like, Add to playlist, Add to queue. */
  actions?: ReactNode;
  /** Over the cover (placed with songCardMenuClass), e.g. the owner's Edit/Delete menu. */
  menu?: ReactNode;
  /** Under the title, e.g. the media pipeline's state for the song's artist. */
  footer?: ReactNode;
}) {
  const { current: isCurrent, playing: isPlaying, play } = playback;
  const artist = artistLabel(song);

  return (
    <article
      className={cn(
        'group relative rounded-xl bg-card/60 p-3 transition-colors hover:bg-card',
        isCurrent && 'bg-card ring-1 ring-primary/60',
      )}
      data-testid="song-card"
      aria-current={isCurrent ? 'true' : undefined}
    >
      <div className="relative aspect-square overflow-hidden rounded-lg bg-muted shadow-md">
        <CoverArt
          src={song.cover_art_url}
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
        {song.source && (
          <Badge
            variant="secondary"
            className="absolute top-2 left-2 bg-black/70 text-white backdrop-blur-sm"
            title={`30-second preview from ${sourceLabel(song.source)}`}
          >
            {sourceLabel(song.source)} preview
          </Badge>
        )}
        {menu}
        <button
          type="button"
          aria-label={playLabel(song.title, artist, playback)}
          disabled={!play}
          onClick={() => play?.()}
          className={cn(
            'absolute right-2 bottom-2 flex size-11 items-center justify-center rounded-full shadow-lg transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/70',
            play
              ? 'brand-gradient text-white hover:scale-105'
              : 'cursor-not-allowed bg-black/60 text-white/60',
            // Shown on hover or focus; always while it is the current song or on touch screens.
            !isCurrent &&
              play &&
              'translate-y-1 opacity-0 group-hover:translate-y-0 group-hover:opacity-100 focus-visible:translate-y-0 focus-visible:opacity-100 pointer-coarse:translate-y-0 pointer-coarse:opacity-100',
          )}
        >
          {isPlaying ? (
            <Pause className="size-5 fill-current" aria-hidden="true" />
          ) : (
            <Play className="ml-0.5 size-5 fill-current" aria-hidden="true" />
          )}
        </button>
      </div>
      {/* On a narrow card the actions wrap below the title rather than squeezing it, and onto a
          second line rather than past the card's edge. */}
      <div className="mt-3 flex flex-wrap items-start gap-x-1">
        <div className="min-w-24 flex-1">
          <h3 className="truncate text-sm font-semibold" title={song.title}>
            {song.title}
          </h3>
          <p className="truncate text-xs text-muted-foreground">
            <ArtistLink artistId={song.artist_id}>{artist}</ArtistLink>
          </p>
        </div>
        <div className="-mr-1 ml-auto flex flex-wrap items-center justify-end">{actions}</div>
      </div>
      {footer}
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
