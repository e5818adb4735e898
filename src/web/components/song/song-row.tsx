// A song as a list row (recently played, liked songs, a playlist): Play/Pause, cover, title
// and artist, then what the list hands it: its details (e.g. when it played) and its actions
// (Add to playlist, Add to queue, Like, Remove). The row shows and says which song is current;
// the list wires its play button. The card grid's counterpart is song-card.tsx.
import type { CSSProperties, ReactNode, Ref } from 'react';
import { Pause, Play } from 'lucide-react';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { ArtistLink } from './artist-link.tsx';
import { CoverArt } from './cover-art.tsx';
import { artistLabel } from './song-display.ts';
import { playLabel, type SongPlayback } from './song-playback.ts';

export const songListClass =
  'divide-y divide-border/60 overflow-hidden rounded-xl border bg-card/40';

const rowClass = 'flex items-center gap-3 px-3 py-2.5 sm:gap-4 sm:px-4';

export interface SongRowProps {
  song: SongDto;
  playback: SongPlayback;
  testId: string;
  /** After the title: the list's own details (e.g. when it played). */
  details?: ReactNode;
  /** At the end: what the listener can do with the song (e.g. Add to queue, Like). */
  actions?: ReactNode;
  /** Before Play: e.g. a playlist's position or drag handle. */
  leading?: ReactNode;
  /** For lists that move rows (a sortable playlist). */
  rowRef?: Ref<HTMLLIElement>;
  style?: CSSProperties;
  className?: string;
}

export function SongRow({
  song,
  playback,
  testId,
  details,
  actions,
  leading,
  rowRef,
  style,
  className,
}: SongRowProps) {
  const { current: isCurrent, playing: isPlaying, play } = playback;
  const artist = artistLabel(song);

  return (
    <li
      ref={rowRef}
      style={style}
      data-testid={testId}
      aria-current={isCurrent ? 'true' : undefined}
      className={cn(rowClass, 'transition-colors hover:bg-card', isCurrent && 'bg-card', className)}
    >
      {leading}
      <Button
        size="icon"
        variant="ghost"
        className={cn(
          'size-10 shrink-0 rounded-full',
          play && 'brand-gradient text-white hover:opacity-90',
        )}
        disabled={!play}
        aria-label={playLabel(song.title, artist, playback)}
        onClick={() => play?.()}
      >
        {isPlaying ? (
          <Pause className="size-4 fill-current" aria-hidden="true" />
        ) : (
          <Play className="ml-0.5 size-4 fill-current" aria-hidden="true" />
        )}
      </Button>
      <CoverArt
        src={song.cover_art_url}
        // A row that leads with a position or handle leaves the cover out on phones: the
        // title needs the room more.
        className={cn(
          'size-11 shrink-0 rounded-md bg-muted object-cover',
          leading && 'max-sm:hidden',
        )}
      />
      <div className="min-w-0 flex-1">
        {/* The row's background and aria-current mark the current song; brand-coloured text
            would fall below AA contrast on the card. */}
        <p className="truncate text-sm font-semibold" title={song.title} data-testid="song-title">
          {song.title}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          <ArtistLink artistId={song.artist_id}>{artist}</ArtistLink>
        </p>
      </div>
      {details}
      {actions}
    </li>
  );
}

/** Rows of placeholders while a song list loads. */
export function SongRowsSkeleton({ rows, testId }: { rows: number; testId: string }) {
  return (
    <ol aria-hidden="true" data-testid={testId} className={songListClass}>
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className={rowClass}>
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
