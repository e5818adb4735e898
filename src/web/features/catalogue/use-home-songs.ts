// Home's data in one place (spec §2 Recent Tracks / Popular Tracks). A failed call is an
// error the screen shows with Retry, never an empty catalogue.
import { useQuery } from '@tanstack/react-query';
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { api } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { pollWhileProcessing } from '@/web/components/song/song-processing.ts';

export type Song = SongDto;

export interface HomeSongs {
  recent: Song[];
  popular: Song[];
}

const PER_SECTION = 6;

export function useHomeSongs() {
  const userId = useSession().user?.id;
  return useQuery({
    queryKey: ['songs', 'home'],
    queryFn: async ({ signal }): Promise<HomeSongs> => {
      const data = await api(songsApi.home, { signal });
      return {
        recent: (data.recent ?? []).slice(0, PER_SECTION),
        popular: (data.popular ?? []).slice(0, PER_SECTION),
      };
    },
    staleTime: 30_000,
    refetchInterval: pollWhileProcessing<HomeSongs>(userId, (d) => [...d.recent, ...d.popular]),
  });
}
