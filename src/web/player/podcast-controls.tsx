// What the player bar adds while an episode is current: skip back 15 s, skip
// forward 30 s, and the speed (0.75×–2×, kept per device). Songs show none of it.
import { useId } from 'react';
import { RotateCcw, RotateCw } from 'lucide-react';
import {
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
} from '@/core/validation/podcast-playback.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { isPlaybackRate, PLAYBACK_RATES, rateLabel } from './playback-rate.ts';
import { usePlaybackRate, usePlayerControls } from './use-player.ts';

function SkipButton({ seconds }: { seconds: number }) {
  const { skipBy } = usePlayerControls();
  const back = seconds < 0;
  const amount = Math.abs(seconds);
  const Icon = back ? RotateCcw : RotateCw;
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Skip ${back ? 'back' : 'forward'} ${amount} seconds`}
      title={`Skip ${back ? 'back' : 'forward'} ${amount} seconds (${back ? '←' : '→'})`}
      className="relative shrink-0 text-muted-foreground hover:text-foreground"
      onClick={() => skipBy(seconds)}
    >
      <Icon className="size-6" strokeWidth={1.75} aria-hidden="true" />
      <span
        aria-hidden="true"
        className="absolute inset-0 flex items-center justify-center pt-px text-[9px] font-bold"
      >
        {amount}
      </span>
    </Button>
  );
}

export const SkipBackButton = () => <SkipButton seconds={-SKIP_BACK_SECONDS} />;
export const SkipForwardButton = () => <SkipButton seconds={SKIP_FORWARD_SECONDS} />;

/** A native select: the platform's own keyboard and screen-reader behaviour. */
export function PlaybackSpeed() {
  const rate = usePlaybackRate();
  const { setPlaybackRate } = usePlayerControls();
  const id = useId();
  return (
    <div className="relative shrink-0">
      <label htmlFor={id} className="sr-only">
        Playback speed
      </label>
      <select
        id={id}
        value={String(rate)}
        title="Playback speed"
        onChange={(e) => {
          const value = Number(e.currentTarget.value);
          if (isPlaybackRate(value)) setPlaybackRate(value);
        }}
        className="h-8 cursor-pointer appearance-none rounded-md border border-input bg-background/60 px-2 text-center text-xs font-semibold tabular-nums shadow-xs outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        {PLAYBACK_RATES.map((r) => (
          <option key={r} value={String(r)}>
            {rateLabel(r)}
          </option>
        ))}
      </select>
    </div>
  );
}
