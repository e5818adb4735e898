// The listener's streaming quality, kept per browser and shared by the player
// engine and the control.
import { deviceSetting } from './device-setting.ts';
import { DEFAULT_QUALITY, parseQuality, type Quality } from './playback-quality.ts';

const quality = deviceSetting<Quality>('canto:quality', DEFAULT_QUALITY, parseQuality, String);

export const setQuality = (value: Quality): void => quality.set(value);
export const useQuality = (): Quality => quality.use();
