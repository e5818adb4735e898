// The seek bar and transport (Shuffle, Previous, Play/Pause, Next, Repeat) that the player bar
// and the full-screen now-playing view both show; apart so neither imports the other.
import { useId } from 'react';
import { Pause, Play, Repeat, Repeat1, Shuffle, SkipBack, SkipForward } from 'lucide-react';
import type { RepeatMode } from '@/core/player/player-machine.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { formatTime } from '@/web/lib/format.ts';
import {
  useNowPlaying,
  usePlayerControls,
  usePlayerProgress,
  usePlayerQueue,
} from './use-player.ts';
import { SkipBackButton, SkipForwardButton } from './podcast-controls.tsx';
import { WaveformScrubber } from './waveform-scrubber.tsx';

const REPEAT_DESCRIPTIONS: Record<RepeatMode, string> = {
  off: 'Repeat is off',
  all: 'Repeating the queue',
  one: 'Repeating this track',
};

// A toggle that is on reads in the brand colour, with a dot under it (not colour alone).
export const toggleClass = (on: boolean) =>
  cn(
    'relative shrink-0 text-muted-foreground hover:text-foreground',
    on &&
      'text-primary hover:text-primary after:absolute after:bottom-0.5 after:size-1 after:rounded-full after:bg-current',
  );

export function SeekBar({
  peaksUrl,
  testIds = true,
}: {
  peaksUrl: string | null;
  /** The bar's times carry test ids; a second copy (the now-playing view) goes without. */
  testIds?: boolean;
}) {
  const { progress, duration } = usePlayerProgress();
  const { seek } = usePlayerControls();
  return (
    <div className="flex w-full items-center gap-2 text-xs text-muted-foreground tabular-nums">
      <span data-testid={testIds ? 'player-elapsed' : undefined} className="w-10 text-right">
        {formatTime(progress)}
      </span>
      <WaveformScrubber
        peaksUrl={peaksUrl}
        progress={progress}
        duration={duration}
        onSeek={seek}
        className="min-w-0 flex-1"
      />
      <span data-testid={testIds ? 'player-duration' : undefined} className="w-10">
        {formatTime(duration)}
      </span>
    </div>
  );
}

export function Transport() {
  const { playing, current } = useNowPlaying();
  const episode = current?.kind === 'episode';
  const { shuffle, repeat, canNext, canPrevious } = usePlayerQueue();
  const { toggle, next, previous, cycleRepeat, toggleShuffle } = usePlayerControls();
  const repeatDescription = useId();
  return (
    <div className="flex items-center justify-center gap-1 sm:gap-2">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Shuffle"
        aria-pressed={shuffle}
        className={toggleClass(shuffle)}
        onClick={toggleShuffle}
      >
        <Shuffle aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Previous"
        disabled={!canPrevious}
        className="shrink-0"
        onClick={previous}
      >
        <SkipBack className="fill-current" aria-hidden="true" />
      </Button>
      {episode && <SkipBackButton />}
      <Button
        size="icon"
        className="size-10 shrink-0 rounded-full bg-foreground text-background hover:scale-105 hover:bg-foreground"
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={toggle}
      >
        {playing ? (
          <Pause className="size-5 fill-current" aria-hidden="true" />
        ) : (
          <Play className="ml-0.5 size-5 fill-current" aria-hidden="true" />
        )}
      </Button>
      {episode && <SkipForwardButton />}
      <Button
        variant="ghost"
        size="icon"
        aria-label="Next"
        disabled={!canNext}
        className="shrink-0"
        onClick={next}
      >
        <SkipForward className="fill-current" aria-hidden="true" />
      </Button>
      {/* The name stays 'Repeat'; the mode (off / all / one) is its description. */}
      <Button
        variant="ghost"
        size="icon"
        aria-label="Repeat"
        aria-pressed={repeat !== 'off'}
        aria-describedby={repeatDescription}
        data-repeat={repeat}
        title={REPEAT_DESCRIPTIONS[repeat]}
        className={toggleClass(repeat !== 'off')}
        onClick={cycleRepeat}
      >
        {repeat === 'one' ? <Repeat1 aria-hidden="true" /> : <Repeat aria-hidden="true" />}
        <span id={repeatDescription} hidden>
          {REPEAT_DESCRIPTIONS[repeat]}
        </span>
      </Button>
    </div>
  );
}
