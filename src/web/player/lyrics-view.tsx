// The current song's lyrics, for the lyrics panel and the now-playing view: synced lines as
// buttons (the sung one marked aria-current and kept in view; a click plays from its time),
// plain lyrics as they were typed, or 'No lyrics for this song'. Fetched only while shown.
import { useEffect, useRef } from 'react';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import type { SongLyricsDto } from '@/contracts/songs.contract.ts';
import { currentLyricIndex } from './lyrics-line.ts';
import { useSongLyrics } from './use-song-lyrics.ts';
import { usePlayerControls, usePlayerProgress, type PlayerItem } from './use-player.ts';

const NONE = 'No lyrics for this song';

function SyncedLyrics({ lines }: { lines: SongLyricsDto['lines'] }) {
  const { progress } = usePlayerProgress();
  const { seek } = usePlayerControls();
  const current = currentLyricIndex(lines, Math.round(progress * 1000));
  const items = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    const line = items.current[current];
    // Only the lyrics' own box scrolls: the page or dialog around it stays where it is.
    const box = line?.closest<HTMLElement>('[data-lyrics-scroll]');
    if (!line || !box) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const at = line.getBoundingClientRect();
    const view = box.getBoundingClientRect();
    box.scrollBy({
      top: at.top - view.top - (box.clientHeight - at.height) / 2,
      behavior: still ? 'auto' : 'smooth',
    });
  }, [current]);

  return (
    <ol className="flex flex-col gap-1" data-testid="lyrics-lines">
      {lines.map((line, i) => (
        <li key={i}>
          <button
            ref={(el) => {
              items.current[i] = el;
            }}
            type="button"
            aria-current={i === current ? 'true' : undefined}
            onClick={() => seek((line.time_ms ?? 0) / 1000)}
            className={cn(
              'w-full rounded-md px-2 py-1 text-left text-lg font-semibold text-muted-foreground transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60',
              i === current && 'text-foreground',
              i < current && 'opacity-70',
            )}
          >
            {line.text || '♪'}
          </button>
        </li>
      ))}
    </ol>
  );
}

/**
 * The lyrics of `item` (songs uploaded here have them; other items never do), inside a
 * scrolling box marked `data-lyrics-scroll`, which keeps the sung line in its middle.
 */
export function LyricsLines({ item }: { item: PlayerItem }) {
  const songId = item.kind === 'song' && item.artistId ? item.id : null;
  const lyrics = useSongLyrics(songId);
  if (songId === null || lyrics.data === null)
    return <p className="text-muted-foreground">{NONE}</p>;
  if (lyrics.isPending)
    return (
      <p role="status" className="text-muted-foreground">
        Loading lyrics…
      </p>
    );
  if (lyrics.isError)
    return (
      <div className="flex flex-col items-start gap-2">
        <p className="text-muted-foreground">The lyrics could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => void lyrics.refetch()}>
          Try again
        </Button>
      </div>
    );
  if (!lyrics.data.synced)
    return (
      <div data-testid="lyrics-plain" className="text-lg leading-relaxed">
        {lyrics.data.lines.map((line, i) =>
          line.text === '' ? <br key={i} /> : <p key={i}>{line.text}</p>,
        )}
      </div>
    );
  return <SyncedLyrics lines={lyrics.data.lines} />;
}
