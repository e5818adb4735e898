// Podcast shows and episodes (docs/decisions/0018; spec §2 Podcasts, Podcast upload): every show
// newest first, one show with its episodes (and the listener's progress in each), the
// artist's own shows, and creating, editing or deleting a show (and deleting an episode).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { podcastsApi } from '@/contracts/api/podcasts.api.ts';
import type { PodcastDetail, PodcastList } from '@/contracts/podcasts.contract.ts';
import { pollWhileProcessing } from '@/web/components/song/song-processing.ts';
import { api, isApiError } from '@/web/lib/api-client.ts';
import { podcastKeys } from './podcast-keys.ts';

export { podcastKeys };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A show id as the URL gives it: anything else cannot name a show. */
export const isShowId = (id: string | null): id is string => id !== null && UUID.test(id);

/** A definite answer (404, 403…) is not asked again; a network hiccup is, twice. */
const retryUnlessAnswered = (count: number, e: unknown) =>
  !(isApiError(e) && e.status >= 400 && e.status < 500) && count < 2;

export function usePodcasts() {
  return useQuery({
    queryKey: podcastKeys.list,
    queryFn: ({ signal }) => api(podcastsApi.all, { signal }),
    select: (data) => data.items,
  });
}

/**
 * One show and its episodes (episode_number descending, as the server orders them). Its
 * creator (`viewerId`) sees an episode's processing settle: the show is asked again every
 * few seconds while one of its episodes is processing, as an artist's own songs are.
 */
export function usePodcast(id: string | null, viewerId?: string | null) {
  return useQuery({
    queryKey: podcastKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api(podcastsApi.get, { params: { id: id! }, signal }),
    enabled: isShowId(id),
    retry: retryUnlessAnswered,
    // An episode is its show creator's own, as a song is its artist's.
    refetchInterval: pollWhileProcessing<PodcastDetail>(viewerId, (d) =>
      d.episodes.map((e) => ({ artist_id: d.podcast.creator_id, status: e.status })),
    ),
  });
}

/** POST /episodes/{id}/reprocess (the show's creator; the server checks): a failed episode's media job again. */
export function useReprocessEpisode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (episode: { id: string; podcast_id: string }) =>
      api(podcastsApi.reprocessEpisode, { params: { id: episode.id } }),
    onSuccess: (updated) => {
      // 'Processing…' at once; the show is then asked again until it settles.
      client.setQueryData<PodcastDetail>(podcastKeys.detail(updated.podcast_id), (d) =>
        d
          ? {
              ...d,
              episodes: d.episodes.map((e) =>
                e.id === updated.id ? { ...e, status: updated.status } : e,
              ),
            }
          : d,
      );
      void client.invalidateQueries({ queryKey: podcastKeys.detail(updated.podcast_id) });
    },
  });
}

/** The signed-in artist's own shows, newest first (the upload form's choices). */
export function useMyPodcasts() {
  return useQuery({
    queryKey: podcastKeys.mine,
    queryFn: ({ signal }) => api(podcastsApi.mine, { signal }),
    select: (data) => data.items,
  });
}

export type SaveShow = { id: string | null; form: FormData };

/** POST /podcasts (create) or PATCH /podcasts/{id} (edit), multipart with an optional cover. */
export function useSavePodcast() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: SaveShow) =>
      id
        ? api(podcastsApi.update, { params: { id }, body: form })
        : api(podcastsApi.create, { body: form }),
    onSuccess: (show) => {
      // The upload form's choices hold the show at once (a new one is chosen right away).
      client.setQueryData<PodcastList>(podcastKeys.mine, (d) => {
        if (!d) return { items: [show] };
        const known = d.items.some((s) => s.id === show.id);
        return {
          items: known ? d.items.map((s) => (s.id === show.id ? show : s)) : [show, ...d.items],
        };
      });
      // Lists and the show's own page show the new title and cover.
      void client.invalidateQueries({ queryKey: podcastKeys.all });
      void client.invalidateQueries({ queryKey: podcastKeys.mine });
      client.setQueryData<PodcastDetail>(podcastKeys.detail(show.id), (d) =>
        d ? { ...d, podcast: show } : d,
      );
    },
  });
}

/** Lists a deleted episode or show may be in, besides its own page: search results. */
const SEARCH_KEY = ['search'] as const;

/** DELETE /episodes/{id} (the show's creator; the server checks). */
export function useDeleteEpisode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (episode: { id: string; podcast_id: string }) =>
      api(podcastsApi.removeEpisode, { params: { id: episode.id } }),
    onSuccess: (_, episode) => {
      // Gone from the show's page at once; the refetch brings the new episode count.
      client.setQueryData<PodcastDetail>(podcastKeys.detail(episode.podcast_id), (d) =>
        d ? { ...d, episodes: d.episodes.filter((e) => e.id !== episode.id) } : d,
      );
      void client.invalidateQueries({ queryKey: podcastKeys.all });
      void client.invalidateQueries({ queryKey: podcastKeys.mine });
      void client.invalidateQueries({ queryKey: SEARCH_KEY });
    },
  });
}

/**
 * DELETE /podcasts/{id} (its creator; the server checks): the show and all its episodes.
 * `leave` takes the screen off the show first, so its page is not fetched again (a 404).
 */
export function useDeletePodcast(leave: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(podcastsApi.remove, { params: { id } }),
    onSuccess: (_, id) => {
      leave();
      client.removeQueries({ queryKey: podcastKeys.detail(id) });
      client.setQueryData<PodcastList>(podcastKeys.list, (d) =>
        d ? { items: d.items.filter((s) => s.id !== id) } : d,
      );
      void client.invalidateQueries({ queryKey: podcastKeys.list });
      void client.invalidateQueries({ queryKey: podcastKeys.mine });
      void client.invalidateQueries({ queryKey: SEARCH_KEY });
    },
  });
}
