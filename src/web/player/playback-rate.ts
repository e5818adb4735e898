// The speed episodes play at (0.75×–2×), a choice per browser like quality:
// 1× unless changed. Songs always play at 1×; the provider decides which rate applies.
import { PLAYBACK_RATES } from '@/core/validation/podcast-playback.rules.ts';
import { deviceSetting } from './device-setting.ts';

export type PlaybackRate = (typeof PLAYBACK_RATES)[number];
export { PLAYBACK_RATES };

export const DEFAULT_PLAYBACK_RATE: PlaybackRate = 1;

export const isPlaybackRate = (value: unknown): value is PlaybackRate =>
  typeof value === 'number' && (PLAYBACK_RATES as readonly number[]).includes(value);

/** A stored value read back: anything not on the list (old, edited, absent) is 1×. */
export function parsePlaybackRate(stored: string | null): PlaybackRate {
  const n = stored === null || stored.trim() === '' ? NaN : Number(stored);
  return isPlaybackRate(n) ? n : DEFAULT_PLAYBACK_RATE;
}

/** How a rate reads on the control: 0.75×, 1×, 1.5×. */
export const rateLabel = (rate: number): string => `${rate}×`;

const rate = deviceSetting<PlaybackRate>(
  'canto:playback-rate',
  DEFAULT_PLAYBACK_RATE,
  parsePlaybackRate,
  String,
);

export const setPlaybackRate = (value: PlaybackRate): void => rate.set(value);
export const readPlaybackRate = (): PlaybackRate => rate.get();
export const usePlaybackRateSetting = (): PlaybackRate => rate.use();
