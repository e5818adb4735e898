// The podcasts feature's cache follows the player: a saved episode position shows at once in
// the cached show (In progress / Played), then the server's word replaces it. The player only
// tells that a position was saved (its playback events); this feature owns what its cache does.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PodcastDetail } from '@/contracts/podcasts.contract.ts';
import type { EpisodeProgressSaved } from '@/web/player/episode-progress.ts';
import type { PlaybackEvents } from '@/web/player/playback-events.ts';
import { usePlaybackEvents } from '@/web/player/use-player.ts';
import { podcastKeys } from './podcast-keys.ts';

export function showEpisodeProgress(client: QueryClient, saved: EpisodeProgressSaved): void {
  if (!saved.podcastId) return;
  const key = podcastKeys.detail(saved.podcastId);
  client.setQueryData<PodcastDetail>(key, (detail) =>
    detail
      ? {
          ...detail,
          episodes: detail.episodes.map((e) =>
            e.id === saved.episodeId
              ? {
                  ...e,
                  progress: {
                    position: saved.position,
                    completed: saved.completed || (e.progress?.completed ?? false),
                    updated_at: new Date().toISOString(),
                  },
                }
              : e,
          ),
        }
      : detail,
  );
  void client.invalidateQueries({ queryKey: key });
}

/** The cached shows follow the player's saved positions; returns what stops it. */
export const followEpisodeProgress = (events: PlaybackEvents, client: QueryClient): (() => void) =>
  events.on('episodeProgressSaved', (saved) => showEpisodeProgress(client, saved));

/** Keeps the cached shows in step with the player while mounted inside the PlayerProvider. */
export function useEpisodeProgressCache(): void {
  const client = useQueryClient();
  const events = usePlaybackEvents();
  useEffect(() => followEpisodeProgress(events, client), [client, events]);
}
