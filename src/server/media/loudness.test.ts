import { describe, expect, it } from 'vitest';
import { parseEbur128Summary, playbackGainDb } from './loudness.ts';

const summary = (i: string, peak: string) => `[Parsed_ebur128_0 @ 0x1] Summary:

  Integrated loudness:
    I:         ${i} LUFS
    Threshold: -31.8 LUFS

  Loudness range:
    LRA:         0.0 LU
    Threshold: -41.8 LUFS
    LRA low:   -21.8 LUFS
    LRA high:  -21.8 LUFS

  True peak:
    Peak:      ${peak} dBFS
`;

describe('loudness', () => {
  it("reads the integrated loudness and true peak from ebur128's summary", () => {
    expect(parseEbur128Summary(`noise before\n${summary('-21.8', '-21.1')}`)).toEqual({
      integratedLufs: -21.8,
      truePeakDbtp: -21.1,
    });
  });

  it('reads the last summary when there are several, and nothing without one', () => {
    expect(parseEbur128Summary(summary('-30.0', '-9.0') + summary('-8.5', '0.3'))).toEqual({
      integratedLufs: -8.5,
      truePeakDbtp: 0.3,
    });
    expect(parseEbur128Summary('Invalid data found when processing input')).toBeNull();
  });

  it('has no loudness for silence (-70 LUFS, a peak of -inf)', () => {
    expect(parseEbur128Summary(summary('-70.0', '-inf'))).toBeNull();
  });

  it('gains quiet songs up to -14 LUFS unless the true peak would pass -1 dBTP', () => {
    // Quiet with headroom: the full +8 dB.
    expect(playbackGainDb({ integratedLufs: -22, truePeakDbtp: -12 })).toBe(8);
    // Quiet but peaky: only up to -1 dBTP.
    expect(playbackGainDb({ integratedLufs: -22, truePeakDbtp: -4 })).toBe(3);
    // Loud masters come down.
    expect(playbackGainDb({ integratedLufs: -8.25, truePeakDbtp: 0.4 })).toBe(-5.75);
    // A peak over -1 at the target loudness: lowered further than the target asks.
    expect(playbackGainDb({ integratedLufs: -14, truePeakDbtp: 1.5 })).toBe(-2.5);
  });
});
