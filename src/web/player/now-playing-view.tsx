// The full-screen now-playing view a tap on the phone's mini player opens: the cover, title and
// artist, the scrubber, the transport (Shuffle, Previous, Play/Pause, Next, Repeat) and the
// queue; for songs a Lyrics toggle shows the lyrics in the cover's place. A modal dialog named 'Now playing': Escape, its close button or Back closes it, and
// focus returns to the mini player. Its own chunk, with the queue list (most visits never
// open it).
import { useState, type RefObject } from 'react';
import { ChevronDown, ListMusic, MicVocal } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { SeekBar, Transport } from './player-transport.tsx';
import { ItemByline } from './item-byline.tsx';
import { QueueList } from './queue-list.tsx';
import { LyricsLines } from './lyrics-view.tsx';
import { useNowPlaying, usePlayerControls, usePlayerQueue } from './use-player.ts';

function UpNext() {
  const { queue } = usePlayerQueue();
  const { moveInQueue, removeFromQueue, playFromQueue } = usePlayerControls();
  return (
    <section aria-labelledby="now-playing-queue" className="flex flex-col gap-2">
      <h3 id="now-playing-queue" className="text-sm font-semibold">
        Queue
      </h3>
      {queue.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <ListMusic className="size-4" aria-hidden="true" />
          Queue is empty
        </p>
      ) : (
        <>
          <QueueList
            items={queue}
            onMove={moveInQueue}
            onRemove={removeFromQueue}
            onPlay={playFromQueue}
          />
          <p className="text-xs text-muted-foreground">{queue.length} track(s) in queue</p>
        </>
      )}
    </section>
  );
}

export function NowPlayingView({
  onClose,
  returnFocusTo,
}: {
  onClose(): void;
  /** Focus goes back here on close (a tap does not always focus what it tapped). */
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const { current } = useNowPlaying();
  const [lyrics, setLyrics] = useState(false);
  if (!current) return null;
  const showLyrics = lyrics && current.kind === 'song';
  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          aria-describedby={undefined}
          data-testid="now-playing-view"
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            returnFocusTo.current?.focus();
          }}
          onEscapeKeyDown={(e) => {
            // A queue row's handle mid-move (aria-pressed) takes Escape to cancel the move.
            if ((e.target as HTMLElement | null)?.getAttribute?.('aria-pressed') === 'true')
              e.preventDefault();
          }}
          className="fixed inset-0 z-50 flex flex-col overflow-y-auto bg-background outline-none"
        >
          <header className="flex items-center gap-2 px-4 pt-4">
            <DialogPrimitive.Close
              aria-label="Close now playing"
              className="rounded-full p-2 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60"
            >
              <ChevronDown className="size-6" aria-hidden="true" />
            </DialogPrimitive.Close>
            <DialogPrimitive.Title className="flex-1 text-center text-sm font-semibold tracking-wide uppercase">
              Now playing
            </DialogPrimitive.Title>
            {/* Balances the close button, so the title sits in the middle. */}
            <span className="size-10" aria-hidden="true" />
          </header>
          <div className="mx-auto flex w-full max-w-md flex-1 flex-col gap-6 px-6 py-6">
            {showLyrics ? (
              <section
                aria-label="Lyrics"
                data-testid="now-playing-lyrics"
                data-lyrics-scroll
                className="aspect-square w-full overflow-y-auto rounded-lg bg-muted/40 p-4"
              >
                <LyricsLines item={current} />
              </section>
            ) : (
              <CoverArt
                src={current.coverArt}
                lazy={false}
                alt={`Cover of ${current.title}`}
                className="aspect-square w-full rounded-lg bg-muted object-cover shadow-xl"
              />
            )}
            <div className="flex items-center gap-2">
              <div className="min-w-0 flex-1">
                <h2 data-testid="now-playing-title" className="truncate text-xl font-bold">
                  {current.title}
                </h2>
                <p className="truncate text-muted-foreground">
                  <ItemByline item={current} />
                </p>
              </div>
              {current.kind === 'song' && (
                <Button
                  variant="outline"
                  size="sm"
                  aria-pressed={lyrics}
                  onClick={() => setLyrics(!lyrics)}
                >
                  <MicVocal aria-hidden="true" />
                  Lyrics
                </Button>
              )}
            </div>
            <SeekBar peaksUrl={current.waveformUrl ?? null} testIds={false} />
            <Transport />
            <UpNext />
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
