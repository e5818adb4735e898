// What an uploaded audio file may claim and decode to (docs/decisions/0006, "Bad bytes"). The
// duration stored is the one decoding measured; the container's own claim (a header, a Xing frame
// count) only has to agree with it. Pure rules, so uploads of songs and episodes share them.

const HOUR_MS = 3_600_000;

export const audioLimits = {
  /** Longer than any song or episode; also keeps duration_ms far inside its integer column. */
  maxDurationMs: 4 * HOUR_MS,
  /**
   * Telephone audio is 8 kHz; below that nothing is music or speech, and a tiny rate makes a
   * small file claim hours (a 1 Hz WAV of 8 kB says 4,000 s).
   */
  minSampleRate: 8_000,
  /** 8× 96 kHz, above any studio format. */
  maxSampleRate: 768_000,
  /**
   * How far the container's claim may sit from the decoded length: encoder padding, a VBR
   * estimate, a cut-off last frame differ by less than this; a lying header by far more.
   */
  claimToleranceMs: 5_000,
  claimToleranceRatio: 0.25,
} as const;

/** Why a file is refused; sent as `details.reason` beside the spec's upload message. */
export type AudioProblem =
  'sample_rate' | 'too_long' | 'undecodable' | 'no_audio' | 'duration_mismatch';

/** What the container says, before any decoding: refused early when it is already absurd. */
export function claimProblem(claim: {
  durationMs?: number;
  sampleRate?: number;
}): AudioProblem | null {
  const { sampleRate, durationMs } = claim;
  if (
    sampleRate !== undefined &&
    !(sampleRate >= audioLimits.minSampleRate && sampleRate <= audioLimits.maxSampleRate)
  )
    return 'sample_rate';
  if (durationMs !== undefined && !(durationMs <= audioLimits.maxDurationMs)) return 'too_long';
  return null;
}

/** What decoding measured, against the bound and against the container's claim (if any). */
export function decodedProblem(decodedMs: number, claimedMs?: number): AudioProblem | null {
  if (!(decodedMs > 0)) return 'no_audio';
  if (decodedMs > audioLimits.maxDurationMs) return 'too_long';
  if (claimedMs !== undefined && Number.isFinite(claimedMs)) {
    const tolerance = Math.max(
      audioLimits.claimToleranceMs,
      decodedMs * audioLimits.claimToleranceRatio,
    );
    if (Math.abs(claimedMs - decodedMs) > tolerance) return 'duration_mismatch';
  }
  return null;
}
