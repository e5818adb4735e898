import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  LARGE_STEP_SECONDS,
  MIN_BAR_HEIGHT,
  peaksToBars,
  SMALL_STEP_SECONDS,
  seekTargetForKey,
  seekValueText,
  timeAtPointer,
  WaveformScrubber,
  type WaveformScrubberProps,
} from './waveform-scrubber.tsx';

describe('peaksToBars', () => {
  it('keeps the loudest peak of each slice, scaled to 0–1', () => {
    expect(peaksToBars([0, 255, 51, 102], 2)).toEqual([1, 0.4]);
  });

  it('gives one bar per peak when there are fewer peaks than bars', () => {
    expect(peaksToBars([255, 255, 255], 10)).toEqual([1, 1, 1]);
  });

  it('draws silence as a sliver, never as nothing', () => {
    expect(peaksToBars([0, 0, 0, 0], 4)).toEqual(Array(4).fill(MIN_BAR_HEIGHT));
  });

  it('covers every peak once across uneven slices (a spike at the end survives)', () => {
    const peaks = Array(1000).fill(0);
    peaks[999] = 255;
    const bars = peaksToBars(peaks, 7);
    expect(bars).toHaveLength(7);
    expect(bars[6]).toBe(1);
    expect(bars.slice(0, 6).every((h) => h === MIN_BAR_HEIGHT)).toBe(true);
  });

  it('gives no bars for no peaks or no room', () => {
    expect(peaksToBars([], 50)).toEqual([]);
    expect(peaksToBars([10, 20], 0)).toEqual([]);
  });

  it('clamps out-of-range peaks', () => {
    expect(peaksToBars([300], 1)).toEqual([1]);
  });
});

describe('seekTargetForKey', () => {
  it('arrows step 5 s, Page Up / Page Down 30 s', () => {
    expect(seekTargetForKey('ArrowRight', 60, 200)).toBe(60 + SMALL_STEP_SECONDS);
    expect(seekTargetForKey('ArrowUp', 60, 200)).toBe(65);
    expect(seekTargetForKey('ArrowLeft', 60, 200)).toBe(55);
    expect(seekTargetForKey('ArrowDown', 60, 200)).toBe(55);
    expect(seekTargetForKey('PageUp', 60, 200)).toBe(60 + LARGE_STEP_SECONDS);
    expect(seekTargetForKey('PageDown', 60, 200)).toBe(30);
  });

  it('Home goes to the start, End to the end', () => {
    expect(seekTargetForKey('Home', 60, 200)).toBe(0);
    expect(seekTargetForKey('End', 60, 200)).toBe(200);
  });

  it('stays within the track', () => {
    expect(seekTargetForKey('ArrowLeft', 2, 200)).toBe(0);
    expect(seekTargetForKey('PageDown', 10, 200)).toBe(0);
    expect(seekTargetForKey('ArrowRight', 198, 200)).toBe(200);
    expect(seekTargetForKey('PageUp', 190, 200)).toBe(200);
  });

  it('ignores other keys, and every key while the duration is unknown', () => {
    expect(seekTargetForKey('a', 60, 200)).toBeNull();
    expect(seekTargetForKey(' ', 60, 200)).toBeNull();
    expect(seekTargetForKey('ArrowRight', 0, 0)).toBeNull();
    expect(seekTargetForKey('End', 0, Number.NaN)).toBeNull();
  });
});

describe('timeAtPointer', () => {
  it('maps the pointer across the track to the time', () => {
    expect(timeAtPointer(150, 100, 200, 60)).toBe(15);
    expect(timeAtPointer(300, 100, 200, 60)).toBe(60);
  });

  it('clamps outside the track and when nothing is known', () => {
    expect(timeAtPointer(50, 100, 200, 60)).toBe(0);
    expect(timeAtPointer(999, 100, 200, 60)).toBe(60);
    expect(timeAtPointer(150, 100, 0, 60)).toBe(0);
    expect(timeAtPointer(150, 100, 200, 0)).toBe(0);
  });
});

describe('seekValueText', () => {
  it('reads m:ss of m:ss', () => {
    expect(seekValueText(65.7, 203)).toBe('1:05 of 3:23');
    expect(seekValueText(0, 0)).toBe('0:00 of 0:00');
  });
});

function render(props: Partial<WaveformScrubberProps>) {
  const client = new QueryClient();
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(WaveformScrubber, {
        peaksUrl: null,
        progress: 0,
        duration: 0,
        onSeek: () => {},
        ...props,
      }),
    ),
  );
}

describe('WaveformScrubber markup', () => {
  it('is a slider named Seek with its range and the time as text', () => {
    const html = render({ progress: 65, duration: 203 });
    expect(html).toMatch(/<input[^>]*type="range"/);
    expect(html).toContain('aria-label="Seek"');
    expect(html).toContain('aria-valuetext="1:05 of 3:23"');
    expect(html).toContain('min="0"');
    expect(html).toContain('max="203"');
    expect(html).toContain('value="65"');
    expect(html).not.toContain('disabled');
  });

  it('falls back to a plain bar, filled to the elapsed part, without peaks', () => {
    const html = render({ progress: 50, duration: 200 });
    expect(html).toContain('data-waveform="plain"');
    expect(html).toContain('width:25%');
    expect(html).not.toContain('<svg');
  });

  it('is disabled while the duration is unknown, and takes another name', () => {
    const html = render({ duration: 0, label: 'Seek episode' });
    expect(html).toContain('aria-label="Seek episode"');
    expect(html).toMatch(/<input[^>]*disabled=""/);
  });
});
