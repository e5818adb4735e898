// Spec §2 Liked songs: the listener's liked songs, newest like first, with Play All,
// per-song play, add to queue and unlike.
import { Heart, Pause, Play, RotateCw } from 'lucide-react';
import type { LikedSongItem } from '@/contracts/library.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { artistLabel } from '@/web/features/catalogue/song-display.ts';
import { CoverArt } from '@/web/features/catalogue/cover-art.tsx';
import { songToPlayable } from '@/web/features/player/playable.ts';
import { AddToQueueButton } from '@/web/features/player/add-to-queue-button.tsx';
import { useNowPlaying, usePlayerControls } from '@/web/features/player/use-player.ts';
import type { PlayerItem } from '@/web/features/player/use-player.ts';
import { LikeButton } from './like-button.tsx';
import { useLikedSongs } from './use-likes.ts';

const SKELETON_ROWS = 6;
const listClass = 'divide-y divide-border/60 overflow-hidden rounded-xl border bg-card/40';

function LikedRow({ item }: { item: LikedSongItem }) {
  const { song } = item;
  const { current, playing } = useNowPlaying();
  const { load } = usePlayerControls();
  const playable = songToPlayable(song);
  const artist = artistLabel(song);
  const isCurrent = current?.id === song.id;
  const isPlaying = isCurrent && playing;

  return (
    <li
      data-testid="liked-song"
      aria-current={isCurrent ? 'true' : undefined}
      className={cn(
        'flex items-center gap-3 px-3 py-2.5 transition-colors hover:bg-card sm:gap-4 sm:px-4',
        isCurrent && 'bg-card',
      )}
    >
      <Button
        size="icon"
        variant="ghost"
        className={cn(
          'size-10 shrink-0 rounded-full',
          playable && 'brand-gradient text-white hover:opacity-90',
        )}
        disabled={!playable}
        aria-label={
          playable
            ? `${isPlaying ? 'Pause' : 'Play'} ${song.title} by ${artist}`
            : `${song.title} cannot be played: no audio available`
        }
        onClick={() => playable && load(playable)}
      >
        {isPlaying ? (
          <Pause className="size-4 fill-current" aria-hidden="true" />
        ) : (
          <Play className="ml-0.5 size-4 fill-current" aria-hidden="true" />
        )}
      </Button>
      <CoverArt
        src={song.cover_art_url}
        className="size-11 shrink-0 rounded-md bg-muted object-cover"
      />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold" title={song.title}>
          {song.title}
        </p>
        <p className="truncate text-xs text-muted-foreground">{artist}</p>
      </div>
      {playable && <AddToQueueButton item={playable} />}
      <LikeButton
        songId={song.id}
        title={song.title}
        unlikeMessage="Song removed from liked songs"
      />
    </li>
  );
}

function RowsSkeleton() {
  return (
    <ol aria-hidden="true" data-testid="liked-songs-loading" className={listClass}>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <li key={i} className="flex items-center gap-3 px-3 py-2.5 sm:gap-4 sm:px-4">
          <Skeleton className="size-10 rounded-full" />
          <Skeleton className="size-11 rounded-md" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-3 w-1/4" />
          </div>
        </li>
      ))}
    </ol>
  );
}

export default function LikedSongsPage() {
  const { data: items, isPending, isError, refetch, isFetching } = useLikedSongs();
  const { load, addToQueue } = usePlayerControls();
  const playables = (items ?? []).flatMap((i): PlayerItem[] => {
    const p = songToPlayable(i.song);
    return p ? [p] : [];
  });

  const playAll = () => {
    const [first, ...rest] = playables;
    if (!first) return;
    load(first);
    if (rest.length > 0) addToQueue(rest);
  };

  return (
    <section aria-labelledby="liked-heading" aria-busy={isPending} className="mx-auto max-w-4xl">
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id="liked-heading" className="text-xl font-bold tracking-tight">
          {items && items.length > 0
            ? `${items.length} liked ${items.length === 1 ? 'song' : 'songs'}`
            : 'Liked songs'}
        </h2>
        {items && items.length > 0 && (
          <Button
            className="brand-gradient text-white hover:opacity-90"
            disabled={playables.length === 0}
            onClick={playAll}
          >
            <Play className="fill-current" aria-hidden="true" />
            Play All
          </Button>
        )}
      </div>
      {isPending ? (
        <RowsSkeleton />
      ) : isError ? (
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-xl border border-destructive/40 px-6 py-12 text-center"
        >
          <p>Failed to load liked songs</p>
          <Button variant="outline" disabled={isFetching} onClick={() => void refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <Heart className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No liked songs yet</p>
          <p className="text-sm">Songs you like will show up here, newest first.</p>
        </div>
      ) : (
        <ol className={listClass}>
          {items.map((item) => (
            <LikedRow key={item.song.id} item={item} />
          ))}
        </ol>
      )}
    </section>
  );
}
