// What the engine is handed for an item: the file to stream (the quality chosen and what this
// browser plays, or the plain URL of an item without pipeline media), the loudness gain
// (normalisation on or off), and the speed (episodes at the listener's, songs as recorded).
import type { EngineTrack } from './audio-engine.ts';
import { playbackGain } from './loudness-gain.ts';
import type { Quality } from './playback-quality.ts';
import { chooseAudioSource, type CanPlay } from './rendition-choice.ts';
import type { PlayerItem } from './use-player.ts';

export interface TrackSettings {
  quality: Quality;
  normalization: boolean;
  /** The speed episodes play at. */
  rate: number;
  /** The browser's answer for a MIME type ('', 'maybe', 'probably'). */
  canPlayType(mime: string): string;
  /**
   * The item's downloaded copy, when it is on the device and may play (a subscriber's):
   * played in place of the network's, online too, so it starts at once and works offline.
   */
  downloaded?(item: PlayerItem): string | null;
}

export function trackOf(item: PlayerItem, settings: TrackSettings): EngineTrack {
  const url =
    settings.downloaded?.(item) ??
    (item.media
      ? chooseAudioSource(
          item.media,
          settings.quality,
          (mime) => settings.canPlayType(mime) as CanPlay,
        ).url
      : item.audioUrl);
  return {
    id: item.id,
    url,
    gain: playbackGain(item.media?.gainDb, settings.normalization),
    rate: item.kind === 'episode' ? settings.rate : 1,
  };
}
