import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { EpisodeDto, PodcastDetail } from '@/contracts/podcasts.contract.ts';
import { PlaybackEvents } from '@/web/player/playback-events.ts';
import { followEpisodeProgress, showEpisodeProgress } from './episode-progress-cache.ts';
import { podcastKeys } from './podcast-keys.ts';

const SHOW = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const episode = (id: string, over: Partial<EpisodeDto> = {}): EpisodeDto => ({
  id,
  podcast_id: SHOW,
  podcast_title: 'Night Signals',
  title: `Episode ${id}`,
  description: null,
  audio_url: `/media/audio/${id}.wav`,
  duration: 1800,
  episode_number: 1,
  published_at: '2025-01-01T00:00:00.000Z',
  cover_art_url: null,
  status: 'ready',
  renditions: [],
  loudness: null,
  waveform_url: null,
  progress: null,
  ...over,
});

function cached(episodes: EpisodeDto[]) {
  const client = new QueryClient();
  const detail = { podcast: { id: SHOW }, episodes } as unknown as PodcastDetail;
  client.setQueryData(podcastKeys.detail(SHOW), detail);
  const read = () => client.getQueryData<PodcastDetail>(podcastKeys.detail(SHOW))!;
  return { client, read };
}

describe('the cached show follows saved episode positions', () => {
  it('the saved episode shows its position at once; the others are left alone', () => {
    const { client, read } = cached([episode('e1'), episode('e2')]);
    showEpisodeProgress(client, {
      episodeId: 'e1',
      podcastId: SHOW,
      position: 95,
      completed: false,
    });
    expect(read().episodes[0]!.progress).toMatchObject({ position: 95, completed: false });
    expect(read().episodes[1]!.progress).toBeNull();
    expect(client.getQueryState(podcastKeys.detail(SHOW))?.isInvalidated).toBe(true);
  });

  it('an episode once played stays played when a later position is saved', () => {
    const played = { position: 1800, completed: true, updated_at: '2025-01-02T00:00:00.000Z' };
    const { client, read } = cached([episode('e1', { progress: played })]);
    showEpisodeProgress(client, {
      episodeId: 'e1',
      podcastId: SHOW,
      position: 30,
      completed: false,
    });
    expect(read().episodes[0]!.progress).toMatchObject({ position: 30, completed: true });
  });

  it('a save that names no show touches no cache', () => {
    const { client, read } = cached([episode('e1')]);
    showEpisodeProgress(client, {
      episodeId: 'e1',
      podcastId: undefined,
      position: 30,
      completed: false,
    });
    expect(read().episodes[0]!.progress).toBeNull();
  });

  it("follows the player's playback events until it stops", () => {
    const { client, read } = cached([episode('e1')]);
    const events = new PlaybackEvents();
    const stop = followEpisodeProgress(events, client);
    const saved = { episodeId: 'e1', podcastId: SHOW, completed: false };
    events.emit('episodeProgressSaved', { ...saved, position: 12 });
    expect(read().episodes[0]!.progress).toMatchObject({ position: 12 });
    stop();
    events.emit('episodeProgressSaved', { ...saved, position: 40 });
    expect(read().episodes[0]!.progress).toMatchObject({ position: 12 });
  });
});
