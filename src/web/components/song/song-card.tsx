import { Pause, Play } from 'lucide-react';
import type { Song } from '@/web/features/catalogue/use-home-songs.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { Badge } from '@/web/components/ui/badge.tsx';
import { artistLabel, sourceLabel } from '@/web/features/catalogue/song-display.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { songToPlayable } from '@/web/features/player/playable.ts';
import { useNowPlaying, usePlayerControls } from '@/web/features/player/use-player.ts';
import { AddToQueueButton } from '@/web/features/player/add-to-queue-button.tsx';
import { LikeButton } from '@/web/features/library/like-button.tsx';
import { AddToPlaylistButton } from '@/web/features/library/add-to-playlist-button.tsx';
import { useSession } from '@/web/features/auth/use-session.ts';
import { SongOwnerMenu } from '@/web/features/catalogue/song-owner-menu.tsx';
import { SongMediaStatus } from '@/web/features/catalogue/song-media-status.tsx';
import { CoverArt } from './cover-art.tsx';
import { ArtistLink } from '@/web/features/social/artist-link.tsx';

export function SongCard({ song }: { song: Song }) {
  const { current, playing } = useNowPlaying();
  const { load } = usePlayerControls();
  const item = songToPlayable(song);
  const artist = artistLabel(song);
  const isCurrent = current?.id === song.id;
  const isPlaying = isCurrent && playing;
  // Only the song's own artist gets Edit/Delete; the server enforces it regardless.
  const ownerId = useSession().user?.id;
  const isOwner = !!ownerId && song.artist_id === ownerId;

  const label = !item
    ? `${song.title} cannot be played: no audio available`
    : `${isPlaying ? 'Pause' : 'Play'} ${song.title} by ${artist}`;

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
        {isOwner && (
          <SongOwnerMenu
            song={song}
            className="absolute top-2 right-2 size-8 rounded-full bg-black/60 text-white backdrop-blur-sm hover:bg-black/80 hover:text-white"
          />
        )}
        <button
          type="button"
          aria-label={label}
          disabled={!item}
          onClick={() => item && load(item)}
          className={cn(
            'absolute right-2 bottom-2 flex size-11 items-center justify-center rounded-full shadow-lg transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/70',
            item
              ? 'brand-gradient text-white hover:scale-105'
              : 'cursor-not-allowed bg-black/60 text-white/60',
            // Shown on hover or focus; always while it is the current song or on touch screens.
            !isCurrent &&
              item &&
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
      {/* On a narrow card the actions wrap below the title rather than squeezing it. */}
      <div className="mt-3 flex flex-wrap items-start gap-x-1">
        <div className="min-w-24 flex-1">
          <h3 className="truncate text-sm font-semibold" title={song.title}>
            {song.title}
          </h3>
          <p className="truncate text-xs text-muted-foreground">
            <ArtistLink artistId={song.artist_id}>{artist}</ArtistLink>
          </p>
        </div>
        <div className="-mr-1 ml-auto flex items-center">
          {/* Both render nothing for external catalogue tracks: only stored songs count. */}
          <LikeButton songId={song.id} title={song.title} />
          <AddToPlaylistButton song={song} />
          {item && <AddToQueueButton item={item} />}
        </div>
      </div>
      {/* The pipeline's state is the artist's business; listeners just play the song. */}
      {isOwner && <SongMediaStatus song={song} />}
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
