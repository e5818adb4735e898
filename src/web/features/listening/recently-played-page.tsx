// Spec §2 Recently played: the listener's last 20 plays, newest first, each playable.
import { History, ListPlus, Pause, Play, RotateCw } from 'lucide-react';
import { toast } from 'sonner';
import type { RecentlyPlayedItem } from '@/contracts/listening.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { artistLabel } from '@/web/features/catalogue/song-display.ts';
import { songToPlayable } from '@/web/features/player/playable.ts';
import { useNowPlaying, usePlayerControls } from '@/web/features/player/use-player.ts';
import { useRecentlyPlayed } from './use-listening.ts';
import { playedAgo, playedAt } from './listening-format.ts';
import { CoverArt } from '@/web/features/catalogue/cover-art.tsx';

const SKELETON_ROWS = 6;

function PlayRow({ item, now }: { item: RecentlyPlayedItem; now: number }) {
  const { song } = item;
  const { current, playing } = useNowPlaying();
  const { load, addToQueue } = usePlayerControls();
  const playable = songToPlayable(song);
  const artist = artistLabel(song);
  const isCurrent = current?.id === song.id;
  const isPlaying = isCurrent && playing;

  return (
    <li
      data-testid="recently-played-item"
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
        {/* The row's background and aria-current mark the current song; brand-coloured text
            would fall below AA contrast on the card. */}
        <p className="truncate text-sm font-semibold" title={song.title}>
          {song.title}
        </p>
        <p className="truncate text-xs text-muted-foreground">{artist}</p>
      </div>
      <time
        dateTime={item.played_at}
        title={playedAt(item.played_at)}
        className="hidden shrink-0 text-xs text-muted-foreground sm:block"
      >
        {playedAgo(item.played_at, now)}
      </time>
      <Button
        size="icon"
        variant="ghost"
        className="shrink-0 text-muted-foreground hover:text-foreground"
        disabled={!playable}
        aria-label={`Add ${song.title} to queue`}
        title="Add to queue"
        onClick={() => {
          if (!playable) return;
          addToQueue([playable]);
          // The cards' toast: one id, so a run of adds updates one toast.
          toast.success('Added to queue', { id: 'added-to-queue', description: song.title });
        }}
      >
        <ListPlus aria-hidden="true" />
      </Button>
    </li>
  );
}

function RowsSkeleton() {
  return (
    <ol aria-hidden="true" data-testid="recently-played-loading" className={listClass}>
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

const listClass = 'divide-y divide-border/60 overflow-hidden rounded-xl border bg-card/40';

export default function RecentlyPlayedPage() {
  const {
    data: items,
    isPending,
    isError,
    refetch,
    isFetching,
    dataUpdatedAt,
  } = useRecentlyPlayed();

  return (
    <section
      aria-labelledby="recently-played-heading"
      aria-busy={isPending}
      className="mx-auto max-w-4xl"
    >
      <h2 id="recently-played-heading" className="mb-4 text-xl font-bold tracking-tight">
        Your last 20 plays
      </h2>
      {isPending ? (
        <RowsSkeleton />
      ) : isError ? (
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-xl border border-destructive/40 px-6 py-12 text-center"
        >
          <p>Failed to load recently played songs</p>
          <Button variant="outline" disabled={isFetching} onClick={() => void refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          <History className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No recently played songs yet</p>
          <p className="text-sm">Songs you play will show up here, newest first.</p>
        </div>
      ) : (
        <ol className={listClass}>
          {items.map((item) => (
            // 'Ago' is measured from when the list arrived, so rendering stays pure.
            <PlayRow key={item.play_id} item={item} now={dataUpdatedAt} />
          ))}
        </ol>
      )}
    </section>
  );
}
