import { describe, expect, it } from 'vitest';
import type { EpisodeDto, PodcastDetail } from '@/contracts/podcasts.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { FreshMedia, type MediaFetch } from './fresh-media.ts';
import type { PlayerItem } from './use-player.ts';

const SONG_ID = '3f2b8c1e-9a4d-4c7b-8e21-5d6f7a8b9c0d';
const EPISODE_ID = '6f1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const SHOW_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const item = (over: Partial<PlayerItem>): PlayerItem => ({
  id: SONG_ID,
  title: 'Old',
  audioUrl: '/media/audio/old.wav?e=1',
  podcastTitle: 'Artist',
  coverArt: null,
  media: { status: 'ready', original: '/media/audio/old.wav?e=1', renditions: [], gainDb: null },
  kind: 'song',
  ...over,
});

const song = (file: string): SongDto => ({
  id: SONG_ID,
  artist_id: null,
  artist: 'Artist',
  title: 'Old',
  genre: null,
  cover_art_url: null,
  file_url: file,
  preview_url: null,
  source: null,
  duration: 3,
  play_count: 0,
  created_at: '2025-01-01T00:00:00.000Z',
  status: 'ready',
  renditions: [],
  loudness: null,
  waveform_url: null,
  has_lyrics: false,
});

const episode = (audio: string): EpisodeDto => ({
  id: EPISODE_ID,
  podcast_id: SHOW_ID,
  podcast_title: 'Night Signals',
  title: 'Pilot',
  description: null,
  audio_url: audio,
  duration: 1800,
  episode_number: 1,
  published_at: '2025-01-01T00:00:00.000Z',
  cover_art_url: null,
  status: 'ready',
  renditions: [],
  loudness: null,
  waveform_url: null,
  progress: null,
});

function fetcher(over: Partial<MediaFetch> = {}) {
  const asked: string[] = [];
  const fetch: MediaFetch = {
    song: async (id) => {
      asked.push(`song ${id}`);
      return song('/media/audio/new.wav?e=2');
    },
    podcast: async (id): Promise<PodcastDetail> => {
      asked.push(`podcast ${id}`);
      return {
        podcast: {
          id: SHOW_ID,
          creator_id: SHOW_ID,
          creator_name: null,
          title: 'Night Signals',
          description: null,
          cover_art_url: null,
          language: 'en',
          category: 'Music',
          explicit: false,
          owner_email: null,
          episode_count: 1,
          feed_url: 'https://canto.test/feed',
          created_at: '2025-01-01T00:00:00.000Z',
          updated_at: null,
        },
        episodes: [episode('/media/audio/ep-new.wav?e=2')],
        public_url_set: true,
      };
    },
    ...over,
  };
  return { fetch, asked };
}

describe('FreshMedia', () => {
  it("a song's media is fetched again once per start and laid over the item", async () => {
    const { fetch, asked } = fetcher();
    const fresh = new FreshMedia(fetch);
    const old = item({});
    expect(fresh.mediaOf(old)).toBe(old);
    expect(await fresh.refresh(old, 7)).toBe(true);
    expect(await fresh.refresh(old, 7)).toBe(false); // the same start failing again
    expect(asked).toEqual([`song ${SONG_ID}`]);
    const now = fresh.mediaOf(old);
    expect(now.audioUrl).toBe('/media/audio/new.wav?e=2');
    expect(now.media?.original).toBe('/media/audio/new.wav?e=2');
    expect(now.title).toBe('Old');
    expect(await fresh.refresh(old, 8)).toBe(true); // a later start may try again
  });

  it("an episode's media comes from its show", async () => {
    const { fetch, asked } = fetcher();
    const fresh = new FreshMedia(fetch);
    const ep = item({ id: EPISODE_ID, kind: 'episode', podcastId: SHOW_ID });
    expect(await fresh.refresh(ep, 1)).toBe(true);
    expect(asked).toEqual([`podcast ${SHOW_ID}`]);
    expect(fresh.mediaOf(ep).audioUrl).toBe('/media/audio/ep-new.wav?e=2');
  });

  it('external previews, episodes without their show, and nothing loaded are not fetched', async () => {
    const { fetch, asked } = fetcher();
    const fresh = new FreshMedia(fetch);
    expect(await fresh.refresh(item({ id: 'itunes:123' }), 1)).toBe(false);
    expect(await fresh.refresh(item({ id: EPISODE_ID, kind: 'episode' }), 2)).toBe(false);
    expect(await fresh.refresh(null, 3)).toBe(false);
    expect(asked).toEqual([]);
  });

  it('a failed fetch is only logged, and the item keeps its media', async () => {
    const logged: string[] = [];
    const { fetch } = fetcher({
      song: async () => {
        throw new Error('down');
      },
    });
    const fresh = new FreshMedia(fetch, (m) => logged.push(m));
    const old = item({});
    expect(await fresh.refresh(old, 1)).toBe(false);
    expect(logged).toEqual([`Could not refresh the media of ${SONG_ID}`]);
    expect(fresh.mediaOf(old)).toBe(old);
  });
});
