// Browse and search data (spec §2 Browse, Search; §9 lists). Query keys start with 'songs'
// or 'search' so an upload can refresh them all.
import { useQuery } from '@tanstack/react-query';
import { searchApi } from '@/contracts/api/search.api.ts';
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { SearchQuery, SearchResponse, SongDto } from '@/contracts/songs.contract.ts';
import { api } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { pollWhileProcessing } from '@/web/components/song/song-processing.ts';

const BROWSE_SECTION = 6;

export function useBrowseSongs() {
  const userId = useSession().user?.id;
  return useQuery({
    queryKey: ['songs', 'browse'],
    queryFn: async ({ signal }) => {
      const data = await api(songsApi.browse, { signal });
      return {
        trending: data.trending.slice(0, BROWSE_SECTION),
        newReleases: data.new_releases.slice(0, BROWSE_SECTION),
      };
    },
    staleTime: 30_000,
    refetchInterval: pollWhileProcessing<{ trending: SongDto[]; newReleases: SongDto[] }>(
      userId,
      (d) => [...d.trending, ...d.newReleases],
    ),
  });
}

export function useGenreSongs(genre: string | null) {
  const userId = useSession().user?.id;
  return useQuery({
    queryKey: ['songs', 'genre', genre],
    queryFn: async ({ signal }) => {
      return (await api(songsApi.list, { query: { genre: genre ?? '' }, signal })).songs;
    },
    enabled: !!genre,
    staleTime: 30_000,
    refetchInterval: pollWhileProcessing<SongDto[]>(userId, (songs) => songs),
  });
}

const EMPTY: SearchResponse = { songs: [], podcasts: [], external: false };

/**
 * Spec §4/§8: a blank query has no results and asks nothing; a failed search clears the
 * results silently (no toast, no retry).
 */
export function useSearch(params: Required<Omit<SearchQuery, 'genre'>> & { genre: string }) {
  const q = params.q.trim();
  const userId = useSession().user?.id;
  return useQuery({
    queryKey: ['search', { ...params, q }],
    queryFn: async ({ signal }): Promise<SearchResponse> => {
      const query = {
        q,
        type: params.type,
        sort: params.sort,
        limit: params.limit,
        genre: params.genre !== 'all' ? params.genre : undefined,
      };
      try {
        return await api(searchApi.search, { query, signal });
      } catch (e) {
        if (signal.aborted) throw e;
        return EMPTY;
      }
    },
    enabled: q.length > 0,
    retry: false,
    staleTime: 15_000,
    refetchInterval: pollWhileProcessing<SearchResponse>(userId, (d) => d.songs),
    // Typing a letter more keeps the last results on screen until the new ones arrive.
    placeholderData: (prev, prevQuery) =>
      prevQuery && (prevQuery.queryKey[1] as { type: string }).type === params.type
        ? prev
        : undefined,
  });
}
