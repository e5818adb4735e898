import { describe, expect, it } from 'vitest';
import type { EpisodeDto } from '@/contracts/podcasts.contract.ts';
import { episodeToPlayable, resumePosition } from './playable.ts';
import { parsePlaybackRate } from './playback-rate.ts';

const episode = (over: Partial<EpisodeDto> = {}): EpisodeDto => ({
  id: '6f1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  podcast_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  podcast_title: 'Night Signals',
  title: 'Pilot',
  description: null,
  audio_url: '/media/audio/e.wav?e=1&s=x',
  duration: 1800,
  episode_number: 1,
  published_at: '2025-01-01T00:00:00.000Z',
  cover_art_url: '/media/covers/c.png',
  status: 'ready',
  renditions: [],
  loudness: { integrated_lufs: -18, true_peak_dbtp: -3, gain_db: 4 },
  waveform_url: null,
  progress: null,
  ...over,
});

describe('episodes in the player', () => {
  it('the show title is the second line; media, gain and show travel with it', () => {
    const item = episodeToPlayable(episode());
    expect(item).toMatchObject({
      kind: 'episode',
      title: 'Pilot',
      podcastTitle: 'Night Signals',
      coverArt: '/media/covers/c.png',
      podcastId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      durationSeconds: 1800,
      resumeAt: 0,
      media: { status: 'ready', original: '/media/audio/e.wav?e=1&s=x', gainDb: 4 },
    });
  });

  it('resumes where the listener left it, unless it was played to the end', () => {
    const at = (position: number, completed: boolean) =>
      resumePosition({ position, completed, updated_at: '2025-01-01T00:00:00.000Z' });
    expect(resumePosition(null)).toBe(0);
    expect(at(312.5, false)).toBe(312.5);
    expect(at(1790, true)).toBe(0);
    expect(at(-4, false)).toBe(0);
    expect(
      episodeToPlayable(episode({ progress: { position: 600, completed: false, updated_at: 'x' } }))
        .resumeAt,
    ).toBe(600);
  });

  it('a stored speed is one of the offered ones, else 1×', () => {
    expect(parsePlaybackRate('1.5')).toBe(1.5);
    expect(parsePlaybackRate('0.75')).toBe(0.75);
    for (const bad of [null, '', '3', 'fast', '1.3', '-1']) expect(parsePlaybackRate(bad)).toBe(1);
  });
});
