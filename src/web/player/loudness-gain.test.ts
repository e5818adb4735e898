import { describe, expect, it } from 'vitest';
import { elementVolume, linearGain, playbackGain } from './loudness-gain.ts';
import { parseNormalization } from './normalization-setting.ts';

describe('linearGain', () => {
  it('turns decibels into a factor', () => {
    expect(linearGain(0)).toBe(1);
    expect(linearGain(-6)).toBeCloseTo(0.5012, 4);
    expect(linearGain(6)).toBeCloseTo(1.9953, 4);
    expect(linearGain(-20)).toBeCloseTo(0.1, 10);
  });

  it('changes nothing without a measurement', () => {
    expect(linearGain(null)).toBe(1);
    expect(linearGain(undefined)).toBe(1);
    expect(linearGain(Number.NaN)).toBe(1);
    expect(linearGain(Infinity)).toBe(1);
  });
});

describe('elementVolume', () => {
  it('keeps the listener volume when a gain node applies the gain', () => {
    expect(elementVolume(30, 0.5, true)).toBeCloseTo(0.3);
    expect(elementVolume(70, 2, true)).toBeCloseTo(0.7);
  });

  it('scales the volume without a gain node, never above 1', () => {
    expect(elementVolume(30, 0.5, false)).toBeCloseTo(0.15);
    expect(elementVolume(80, 2, false)).toBe(1);
    expect(elementVolume(40, 2, false)).toBeCloseTo(0.8);
  });

  it('clamps the listener volume to 0..1', () => {
    expect(elementVolume(150, 1, true)).toBe(1);
    expect(elementVolume(-5, 1, false)).toBe(0);
  });
});

describe('playbackGain', () => {
  it('applies the measured gain while normalisation is on, none when off', () => {
    expect(playbackGain(-6, true)).toBeCloseTo(0.5012, 4);
    expect(playbackGain(-6, false)).toBe(1);
    expect(playbackGain(4, false)).toBe(1);
    expect(playbackGain(null, true)).toBe(1);
  });

  it('is on unless the device says off', () => {
    expect(parseNormalization(null)).toBe(true);
    expect(parseNormalization('on')).toBe(true);
    expect(parseNormalization('garbage')).toBe(true);
    expect(parseNormalization('off')).toBe(false);
  });
});
