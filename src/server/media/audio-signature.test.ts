import { describe, expect, it } from 'vitest';
import { detectAudioContainer } from './audio-signature.ts';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

describe('detectAudioContainer', () => {
  it.each([
    [bytes('ID3', [4, 0, 0, 0, 0, 0, 0, 0, 0]), 'mp3'],
    [bytes([0xff, 0xfb, 0x90, 0x64], [0, 0, 0, 0, 0, 0, 0, 0]), 'mp3'],
    [bytes('RIFF', [0x24, 0, 0, 0], 'WAVE'), 'wav'],
    [bytes('fLaC', [0, 0, 0, 0x22, 0, 0, 0, 0]), 'flac'],
    [bytes('OggS', [0, 2, 0, 0, 0, 0, 0, 0]), 'ogg'],
    [bytes([0, 0, 0, 0x20], 'ftypM4A '), 'm4a'],
  ])('recognises %s as %s', (b, kind) => {
    expect(detectAudioContainer(b)).toBe(kind);
  });

  it.each([
    ['HTML', bytes('<!doctype html><html>')],
    ['PNG', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 0])],
    ['RIFF that is not WAVE', bytes('RIFF', [0, 0, 0, 0], 'AVI ')],
    ['ADTS AAC', bytes([0xff, 0xf1, 0x50, 0x80], [0, 0, 0, 0, 0, 0, 0, 0])],
    ['a bad MPEG bitrate', bytes([0xff, 0xfb, 0xf0, 0x64], [0, 0, 0, 0, 0, 0, 0, 0])],
    ['too few bytes', bytes('RIF')],
    ['nothing', bytes()],
  ])('refuses %s', (_name, b) => {
    expect(detectAudioContainer(b)).toBeNull();
  });
});
