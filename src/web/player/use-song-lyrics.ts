// A song's lyrics, fetched only while a lyrics view shows them. The key starts with 'songs',
// so an edit (which refreshes every song query) shows new lyrics at once.
import { useQuery } from '@tanstack/react-query';
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { SongLyricsDto } from '@/contracts/songs.contract.ts';
import { api, isApiError } from '@/web/lib/api-client.ts';

/** The lyrics of `songId`: null when it has none (or is not an own upload). */
export function useSongLyrics(songId: string | null) {
  return useQuery({
    queryKey: ['songs', songId, 'lyrics'],
    queryFn: async ({ signal }): Promise<SongLyricsDto | null> => {
      try {
        return await api(songsApi.lyrics, { params: { id: songId! }, signal });
      } catch (e) {
        if (isApiError(e) && e.status === 404) return null;
        throw e;
      }
    },
    enabled: songId !== null,
    staleTime: 60_000,
  });
}
