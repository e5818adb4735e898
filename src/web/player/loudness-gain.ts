// Loudness normalisation: the server measures each song and says how many dB to
// add or take away (loudness.gain_db); the player turns that into a linear gain.

/** 10^(dB/20); no measurement (or a nonsense one) means no change. */
export function linearGain(gainDb: number | null | undefined): number {
  if (gainDb === null || gainDb === undefined || !Number.isFinite(gainDb)) return 1;
  return 10 ** (gainDb / 20);
}

/**
 * The element's volume (0..1) for the listener's volume (0..100). With a Web Audio gain node
 * the loudness gain is applied there, so the element keeps the listener's volume exactly;
 * without one the gain scales the volume, and a boost is capped at full volume since
 * `audio.volume` cannot exceed 1.
 */
export function elementVolume(volumePercent: number, gain: number, gainNode: boolean): number {
  const volume = Math.min(1, Math.max(0, volumePercent / 100));
  return gainNode ? volume : Math.min(1, volume * gain);
}

/** The gain the player applies: the measured one while normalisation is on, else none. */
export function playbackGain(gainDb: number | null | undefined, normalization: boolean): number {
  return normalization ? linearGain(gainDb) : 1;
}
