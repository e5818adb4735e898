// The podcasts feature's cache follows the player: a saved episode position shows at once in
// the cached show (In progress / Played), then the server's word replaces it.
import type { QueryClient } from '@tanstack/react-query';
import type { PodcastDetail } from '@/contracts/podcasts.contract.ts';
import type { EpisodeProgressSaved } from '@/web/player/episode-progress.ts';
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
