// Spec §2 Player bar: shown once an item is loaded. Cover (or the placeholder), title and
// artist / podcast; Shuffle, Previous, Play/Pause, Next, Repeat; the progress slider with
// elapsed and total time in m:ss; Queue with a count badge (opens the queue panel); the
// player's menu (quality, loudness normalization), mute and volume; for songs, Lyrics (opens
// the lyrics panel where the queue panel opens, so one closes the other). While an episode is
// current: skip back 15 s and forward 30 s beside Play, and the playback speed. Beside the
// title, what the shell hands it for the item (Like, for songs).
// Split by what each part reads, so a progress tick re-renders only the slider and times.
import { lazy, Suspense, useRef, type ReactNode } from 'react';
import { queueButtonName } from './queue-button-name.ts';
import { ListMusic, MicVocal, Volume1, Volume2, VolumeX } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Range } from '@/web/components/ui/range.tsx';
import {
  useNowPlaying,
  usePlayerControls,
  usePlayerProgress,
  usePlayerQueue,
  type PlayerItem,
} from './use-player.ts';
import { PlaybackSpeed } from './podcast-controls.tsx';
import { ItemByline } from './item-byline.tsx';
import { QualityMenu } from './quality-menu.tsx';
import { SeekBar, toggleClass, Transport } from './player-transport.tsx';
import { useQueuePanel } from './queue-panel-state.ts';
import { useLyricsPanel } from './lyrics-panel-state.ts';
import { useNowPlayingView } from './now-playing-state.ts';
import { CoverArt } from '@/web/components/song/cover-art.tsx';

const NowPlayingView = lazy(() =>
  import('./now-playing-view.tsx').then((m) => ({ default: m.NowPlayingView })),
);

function QueueButton() {
  const { queue } = usePlayerQueue();
  const { open, setOpen } = useQueuePanel();
  const lyrics = useLyricsPanel();
  const count = queue.length;
  return (
    <Button
      variant="ghost"
      size="icon"
      // The badge is drawn only: its count is in the name, as screen readers announce it.
      aria-label={queueButtonName(count)}
      aria-expanded={open}
      className={toggleClass(open)}
      onClick={() => {
        if (!open) lyrics.setOpen(false);
        setOpen(!open);
      }}
    >
      <ListMusic aria-hidden="true" />
      {count > 0 && (
        <span
          data-testid="queue-badge"
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-none font-bold text-primary-foreground"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Button>
  );
}

function LyricsButton() {
  const { open, setOpen } = useLyricsPanel();
  const queue = useQueuePanel();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Lyrics"
      aria-expanded={open}
      className={toggleClass(open)}
      onClick={() => {
        if (!open) queue.setOpen(false);
        setOpen(!open);
      }}
    >
      <MicVocal aria-hidden="true" />
    </Button>
  );
}

function VolumeControl() {
  const { volume, muted } = usePlayerProgress();
  const { setVolume, toggleMute } = usePlayerControls();
  const silent = muted || volume === 0;
  const Icon = silent ? VolumeX : volume < 50 ? Volume1 : Volume2;
  return (
    <div className="flex w-36 items-center gap-1 lg:w-44">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Mute"
        aria-pressed={muted}
        className="shrink-0 text-muted-foreground hover:text-foreground"
        onClick={toggleMute}
      >
        <Icon aria-hidden="true" />
      </Button>
      <Range
        aria-label="Volume"
        aria-valuetext={muted ? `${volume}%, muted` : `${volume}%`}
        className={cn('min-w-0 flex-1', muted && 'opacity-50')}
        min={0}
        max={100}
        step={1}
        value={volume}
        onChange={(e) => setVolume(Number(e.currentTarget.value))}
      />
    </div>
  );
}

export function PlayerBar({
  itemActions,
}: {
  /** Beside the title: what the listener can do with the current item (e.g. Like a song). */
  itemActions?: (item: PlayerItem) => ReactNode;
}) {
  const { current } = useNowPlaying();
  const view = useNowPlayingView();
  const mini = useRef<HTMLButtonElement>(null);
  if (!current) return null;

  return (
    <>
      {view.open && (
        <Suspense fallback={null}>
          <NowPlayingView onClose={view.close} returnFocusTo={mini} />
        </Suspense>
      )}
      {/* Keeps the end of the page clear of the fixed bar (h-32 / h-24, as the queue panel's
          bottom edge and styles.css's toast offsets assume). */}
      <div aria-hidden="true" className="h-32 shrink-0 sm:h-24" />
      <section
        aria-label="Player"
        data-player-bar
        className="fixed inset-x-0 bottom-0 z-30 border-t bg-sidebar/95 backdrop-blur-md md:left-64"
      >
        <div className="mx-auto grid h-32 max-w-[1600px] grid-cols-[minmax(0,1fr)_auto] content-center items-center gap-x-4 px-4 py-1 [grid-template-areas:'info_extra'_'play_play'_'seek_seek'] sm:h-24 sm:gap-y-1 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_minmax(0,1fr)] sm:gap-x-6 sm:py-0 sm:[grid-template-areas:'info_play_extra'_'info_seek_extra'] md:px-6">
          <div className="flex min-w-0 items-center gap-3 [grid-area:info]">
            <div className="relative flex min-w-0 items-center gap-3">
              {/* On a phone the bar is the mini player: a tap on its cover and title opens the
                full-screen now-playing view (the artist link is in there). */}
              <button
                ref={mini}
                type="button"
                aria-label="Open now playing"
                aria-haspopup="dialog"
                data-testid="mini-player"
                onClick={view.show}
                className="absolute inset-0 z-10 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring/60 sm:hidden"
              />
              <CoverArt
                src={current.coverArt}
                lazy={false}
                className="size-10 shrink-0 rounded-md bg-muted object-cover shadow sm:size-12"
              />
              <div className="min-w-0">
                <p data-testid="player-title" className="truncate text-sm font-semibold">
                  {current.title}
                </p>
                <p data-testid="player-artist" className="truncate text-xs text-muted-foreground">
                  <ItemByline item={current} />
                </p>
              </div>
            </div>
            {itemActions?.(current)}
          </div>

          <div className="[grid-area:play] sm:self-end">
            <Transport />
          </div>

          <div className="mx-auto w-full max-w-xl [grid-area:seek] sm:self-start">
            <SeekBar peaksUrl={current.waveformUrl ?? null} />
          </div>

          {/* Queue and the menu on every width (data saving matters most on phones); mute and
              volume from sm (phones have their own volume keys). */}
          <div className="flex items-center justify-end gap-1 [grid-area:extra]">
            {current.kind === 'episode' && <PlaybackSpeed />}
            {current.kind === 'song' && <LyricsButton />}
            <QueueButton />
            <QualityMenu />
            <div className="hidden sm:block">
              <VolumeControl />
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
