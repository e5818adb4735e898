/**
 * EBU R128 loudness as ffmpeg's `ebur128=peak=true` filter reports it, and the playback gain
 * the API hands the player (docs/decisions/0014). ReplayGain 2 uses the same measure; its
 * reference (-18 LUFS) differs, streaming services' -14 LUFS is what the player aims at.
 */
export type Loudness = { integratedLufs: number; truePeakDbtp: number };

/** What the player normalises to. */
export const TARGET_LUFS = -14;
/** The highest true peak a gain may lead to: headroom for lossy decoding's overshoot. */
export const MAX_TRUE_PEAK_DBTP = -1;
/** ebur128's value when nothing passed its absolute gate (silence): nothing to measure. */
const SILENT_LUFS = -70;

const number = (text: string | undefined) =>
  text === undefined ? NaN : text === '-inf' ? -Infinity : Number(text);

/**
 * The integrated loudness and true peak from the filter's closing summary on stderr (the
 * last one, if several). Null when there is none, or the audio is silent (-70 LUFS, a peak
 * of -inf): no gain is meaningful then.
 */
export function parseEbur128Summary(stderr: string): Loudness | null {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const integrated = number(/Integrated loudness:\s+I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1]);
  const peak = number(/True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  if (!Number.isFinite(integrated) || !Number.isFinite(peak)) return null;
  if (integrated <= SILENT_LUFS) return null;
  return { integratedLufs: integrated, truePeakDbtp: peak };
}

/**
 * The gain (dB) that brings the song to TARGET_LUFS, lowered where needed so that its true
 * peak after the gain stays at or below MAX_TRUE_PEAK_DBTP. Negative for loud masters,
 * positive for quiet ones with headroom; rounded to 0.01 dB.
 */
export function playbackGainDb(loudness: Loudness): number {
  const toTarget = TARGET_LUFS - loudness.integratedLufs;
  const headroom = MAX_TRUE_PEAK_DBTP - loudness.truePeakDbtp;
  return Math.round(Math.min(toTarget, headroom) * 100) / 100;
}
