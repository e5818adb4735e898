// The progress slider drawn from the song's waveform peaks: the elapsed part
// filled, seekable by pointer (click or drag) and keyboard. A native range input carries the
// slider semantics and focus (screen readers, and tests can `fill` it); the pointer is
// handled on the drawing so a drag only seeks once, on release.
import {
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { useQuery } from '@tanstack/react-query';
// Type only: the zod schema stays out of the shell's chunk (the player bar is on every screen).
import type { WaveformDocument } from '@/contracts/songs.contract.ts';
import { formatTime } from '@/web/lib/format.ts';
import { cn } from '@/web/components/ui/cn.ts';

export interface WaveformScrubberProps {
  /** Signed URL of the song's WaveformDocument; null draws a plain bar. */
  peaksUrl: string | null;
  /** Seconds. */
  progress: number;
  /** Seconds; 0 while unknown (the slider is then disabled). */
  duration: number;
  onSeek(seconds: number): void;
  label?: string;
  className?: string;
}

/** Keyboard steps in seconds (arrows, Page Up / Page Down). */
export const SMALL_STEP_SECONDS = 5;
export const LARGE_STEP_SECONDS = 30;
/** Silence still shows a sliver, so the waveform reads as a track from end to end. */
export const MIN_BAR_HEIGHT = 0.06;
/** One bar per this many CSS pixels of width (bar plus gap). */
const PX_PER_BAR = 4;
const DEFAULT_BARS = 96;
const MAX_PEAK = 255;

/**
 * `count` bar heights in [MIN_BAR_HEIGHT, 1] from the document's 0–255 peaks: each bar is the
 * loudest peak of its slice, so short transients survive the downsampling. Fewer peaks than
 * bars gives one bar per peak. Empty input gives no bars.
 */
export function peaksToBars(peaks: readonly number[], count: number): number[] {
  const n = Math.min(Math.max(0, Math.floor(count)), peaks.length);
  const bars: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const start = Math.floor((i * peaks.length) / n);
    const end = Math.max(start + 1, Math.floor(((i + 1) * peaks.length) / n));
    let max = 0;
    for (let j = start; j < end; j += 1) max = Math.max(max, peaks[j] ?? 0);
    const height = Math.min(1, Math.max(0, max / MAX_PEAK));
    bars.push(Math.max(MIN_BAR_HEIGHT, height));
  }
  return bars;
}

/**
 * Where a key moves playback, in seconds clamped to [0, duration]; null for keys the slider
 * leaves alone (and for everything while the duration is unknown).
 */
export function seekTargetForKey(key: string, progress: number, duration: number): number | null {
  if (!(duration > 0)) return null;
  const clamp = (s: number) => Math.min(duration, Math.max(0, s));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(progress + SMALL_STEP_SECONDS);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(progress - SMALL_STEP_SECONDS);
    case 'PageUp':
      return clamp(progress + LARGE_STEP_SECONDS);
    case 'PageDown':
      return clamp(progress - LARGE_STEP_SECONDS);
    case 'Home':
      return 0;
    case 'End':
      return duration;
    default:
      return null;
  }
}

/** The time under a pointer at `clientX` on a track spanning [left, left + width]. */
export function timeAtPointer(
  clientX: number,
  left: number,
  width: number,
  duration: number,
): number {
  if (!(width > 0) || !(duration > 0)) return 0;
  const fraction = Math.min(1, Math.max(0, (clientX - left) / width));
  return fraction * duration;
}

/** 'm:ss of m:ss', what a screen reader says for the position. */
export function seekValueText(progress: number, duration: number): string {
  return `${formatTime(progress)} of ${formatTime(duration)}`;
}

function isWaveformDocument(value: unknown): value is WaveformDocument {
  const doc = value as Partial<WaveformDocument> | null;
  return !!doc && doc.version === 1 && Array.isArray(doc.peaks);
}

/** The peaks behind a signed URL, fetched once per URL (its signature changes every window). */
function useWaveformPeaks(peaksUrl: string | null): number[] | null {
  const { data } = useQuery({
    queryKey: ['waveform', peaksUrl],
    enabled: !!peaksUrl,
    staleTime: Number.POSITIVE_INFINITY,
    // A missing waveform is not worth retrying: the plain bar is a fine seek bar.
    retry: false,
    queryFn: async ({ signal }) => {
      const res = await fetch(peaksUrl!, { signal, credentials: 'same-origin' });
      if (!res.ok) throw new Error(`waveform ${res.status}`);
      const doc: unknown = await res.json();
      if (!isWaveformDocument(doc)) throw new Error('waveform: unexpected document');
      return doc.peaks;
    },
  });
  return data && data.length > 0 ? data : null;
}

/** How many bars fit the element's width, following it as it resizes. */
function useBarCount(ref: RefObject<HTMLElement | null>): number {
  const [count, setCount] = useState(DEFAULT_BARS);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = (width: number) => {
      if (width > 0) setCount(Math.max(8, Math.floor(width / PX_PER_BAR)));
    };
    update(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => update(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return count;
}

function Bars({ bars, className }: { bars: number[]; className: string }) {
  // viewBox units: one bar per unit wide, 100 tall; stretched to the element's box.
  return (
    <svg
      aria-hidden="true"
      viewBox={`0 0 ${bars.length} 100`}
      preserveAspectRatio="none"
      className={cn('absolute inset-0 size-full', className)}
    >
      {bars.map((h, i) => (
        <rect key={i} x={i + 0.15} width={0.7} y={50 - h * 50} height={h * 100} rx={0.2} />
      ))}
    </svg>
  );
}

export function WaveformScrubber({
  peaksUrl,
  progress,
  duration,
  onSeek,
  label = 'Seek',
  className,
}: WaveformScrubberProps) {
  const trackRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const peaks = useWaveformPeaks(peaksUrl);
  const barCount = useBarCount(trackRef);
  // While dragging, the drawing follows the pointer; playback moves once, on release.
  const [dragTime, setDragTime] = useState<number | null>(null);

  const disabled = !(duration > 0);
  const max = Math.max(duration, 0);
  const shown = Math.min(Math.max(dragTime ?? progress, 0), max);
  const fill = max > 0 ? (shown / max) * 100 : 0;
  const bars = peaks ? peaksToBars(peaks, barCount) : null;

  const timeAt = (clientX: number) => {
    const rect = trackRef.current?.getBoundingClientRect();
    return rect ? timeAtPointer(clientX, rect.left, rect.width, duration) : 0;
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (disabled || e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    inputRef.current?.focus({ preventScroll: true });
    setDragTime(timeAt(e.clientX));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragTime !== null) setDragTime(timeAt(e.clientX));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (dragTime === null) return;
    setDragTime(null);
    onSeek(timeAt(e.clientX));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const target = seekTargetForKey(e.key, progress, duration);
    if (target === null) return;
    // Our steps, not the browser's (1 s arrows, 10 % pages).
    e.preventDefault();
    onSeek(target);
  };

  return (
    <div
      ref={trackRef}
      data-testid="waveform-scrubber"
      data-waveform={bars ? 'peaks' : 'plain'}
      className={cn(
        'group/scrubber relative h-8 touch-none rounded-sm select-none',
        'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/60',
        disabled ? 'opacity-50' : 'cursor-pointer',
        className,
      )}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDragTime(null)}
    >
      {bars ? (
        <>
          <Bars bars={bars} className="fill-foreground/25" />
          {/* The same bars again, filled, clipped to the elapsed part. */}
          <div
            aria-hidden="true"
            className="absolute inset-0 overflow-hidden"
            style={{ clipPath: `inset(0 ${100 - fill}% 0 0)` }}
          >
            <Bars bars={bars} className="fill-foreground group-hover/scrubber:fill-ring" />
          </div>
        </>
      ) : (
        <div
          aria-hidden="true"
          className="absolute inset-x-0 top-1/2 h-1 -translate-y-1/2 overflow-hidden rounded-full bg-foreground/20"
        >
          <div
            className="h-full rounded-full bg-foreground group-hover/scrubber:bg-ring"
            style={{ width: `${fill}%` }}
          />
        </div>
      )}
      <input
        ref={inputRef}
        type="range"
        aria-label={label}
        aria-valuetext={seekValueText(shown, duration)}
        min={0}
        max={max || 1}
        step={1}
        value={shown}
        disabled={disabled}
        onKeyDown={onKeyDown}
        onChange={(e) => onSeek(Number(e.currentTarget.value))}
        // Invisible and out of the pointer's way: the drawing above takes clicks and drags.
        className="pointer-events-none absolute inset-0 size-full opacity-0"
      />
    </div>
  );
}
