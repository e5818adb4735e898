// Spec §2 Player bar, minimal: shown once an item is loaded. Shuffle, previous/next, repeat
// and the queue come with the full player.
import { Pause, Play, Volume1, Volume2, VolumeX } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { Range } from '@/web/components/ui/range.tsx';
import { formatTime } from '@/web/lib/format.ts';
import { fallbackCover, PLACEHOLDER_COVER } from '@/web/features/catalogue/song-display.ts';
import { useNowPlaying, usePlayerControls, usePlayerProgress } from './use-player.ts';
import { QualityMenu } from './quality-menu.tsx';

function SeekBar() {
  const { progress, duration } = usePlayerProgress();
  const { seek } = usePlayerControls();
  const max = Math.max(duration, progress, 0);
  return (
    <div className="flex w-full items-center gap-2 text-xs text-muted-foreground tabular-nums">
      <span data-testid="player-elapsed" className="w-10 text-right">
        {formatTime(progress)}
      </span>
      <Range
        aria-label="Seek"
        aria-valuetext={`${formatTime(progress)} of ${formatTime(duration)}`}
        className="min-w-0 flex-1"
        min={0}
        max={max || 1}
        step={1}
        value={Math.min(progress, max)}
        disabled={duration === 0}
        onChange={(e) => seek(Number(e.currentTarget.value))}
      />
      <span data-testid="player-duration" className="w-10">
        {formatTime(duration)}
      </span>
    </div>
  );
}

function VolumeControl() {
  const { volume } = usePlayerProgress();
  const { setVolume } = usePlayerControls();
  const Icon = volume === 0 ? VolumeX : volume < 50 ? Volume1 : Volume2;
  return (
    <div className="flex w-36 items-center gap-2 lg:w-44">
      <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <Range
        aria-label="Volume"
        aria-valuetext={`${volume}%`}
        className="min-w-0 flex-1"
        min={0}
        max={100}
        step={1}
        value={volume}
        onChange={(e) => setVolume(Number(e.currentTarget.value))}
      />
    </div>
  );
}

export function PlayerBar() {
  const { current, playing } = useNowPlaying();
  const { toggle } = usePlayerControls();
  if (!current) return null;

  return (
    <>
      {/* Keeps the end of the page clear of the fixed bar. */}
      <div aria-hidden="true" className="h-28 shrink-0 sm:h-24" />
      <section
        aria-label="Player"
        data-player-bar
        className="fixed inset-x-0 bottom-0 z-30 border-t bg-sidebar/95 backdrop-blur-md md:left-64"
      >
        <div className="mx-auto grid max-w-[1600px] grid-cols-[minmax(0,1fr)_auto_auto] items-center gap-x-4 gap-y-1 px-4 py-2 [grid-template-areas:'info_play_volume'_'seek_seek_seek'] sm:h-24 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_minmax(0,1fr)] sm:gap-x-6 sm:py-0 sm:[grid-template-areas:'info_play_volume'_'info_seek_volume'] md:px-6">
          <div className="flex min-w-0 items-center gap-3 [grid-area:info]">
            <img
              src={current.coverArt || PLACEHOLDER_COVER}
              alt=""
              onError={fallbackCover}
              className="size-12 shrink-0 rounded-md bg-muted object-cover shadow"
            />
            <div className="min-w-0">
              <p data-testid="player-title" className="truncate text-sm font-semibold">
                {current.title}
              </p>
              <p data-testid="player-artist" className="truncate text-xs text-muted-foreground">
                {current.podcastTitle}
              </p>
            </div>
          </div>

          <div className="flex justify-center [grid-area:play] sm:self-end">
            <Button
              size="icon"
              className="size-10 rounded-full bg-foreground text-background hover:scale-105 hover:bg-foreground"
              aria-label={playing ? 'Pause' : 'Play'}
              onClick={toggle}
            >
              {playing ? (
                <Pause className="size-5 fill-current" aria-hidden="true" />
              ) : (
                <Play className="ml-0.5 size-5 fill-current" aria-hidden="true" />
              )}
            </Button>
          </div>

          <div className="mx-auto w-full max-w-xl [grid-area:seek] sm:self-start">
            <SeekBar />
          </div>

          {/* Quality on every width (data saving matters most on phones); volume from sm. */}
          <div className="flex items-center justify-end gap-1 [grid-area:volume]">
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
