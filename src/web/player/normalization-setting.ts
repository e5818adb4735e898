// Loudness normalisation on or off, per browser, on unless the listener turned it
// off: songs then play at the gain the media pipeline measured (target -14 LUFS, never
// above the true peak; the server computes gain_db), or as mastered when off.
import { deviceSetting } from './device-setting.ts';

/** Only an explicit "off" turns it off: anything else stored (old, edited) means on. */
export const parseNormalization = (stored: string | null): boolean => stored !== 'off';

const normalization = deviceSetting<boolean>(
  'canto:normalization',
  true,
  parseNormalization,
  (on) => (on ? 'on' : 'off'),
);

export const setNormalization = (on: boolean): void => normalization.set(on);
export const readNormalization = (): boolean => normalization.get();
export const useNormalizationSetting = (): boolean => normalization.use();
