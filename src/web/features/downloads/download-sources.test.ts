import { describe, expect, it } from 'vitest';
import type { SongRenditionDto } from '@/contracts/songs.contract.ts';
import { opusRendition } from './download-sources.ts';

const r = (codec: 'opus' | 'aac', kbps: number): SongRenditionDto => ({
  url: `/r/${codec}-${kbps}`,
  mime: codec === 'opus' ? 'audio/webm; codecs=opus' : 'audio/mp4',
  codec,
  bitrate_kbps: kbps,
  bytes: 1,
  duration: 1,
});

describe('opusRendition', () => {
  it('takes the best Opus at or under 160 kbps, never AAC', () => {
    expect(opusRendition([r('opus', 96), r('opus', 160), r('aac', 256)])?.url).toBe('/r/opus-160');
    expect(opusRendition([r('opus', 256), r('opus', 320)])?.url).toBe('/r/opus-256');
    expect(opusRendition([r('aac', 128)])).toBeNull();
  });
});
