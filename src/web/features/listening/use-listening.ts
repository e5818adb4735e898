// The listener's own history and stats (spec §2 Recently played, Stats). Both are read fresh
// on each visit: a play started on another screen must show when the listener comes here.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { listeningApi } from '@/contracts/api/listening.api.ts';
import type { UserStats } from '@/contracts/listening.contract.ts';
import { api } from '@/web/lib/api-client.ts';

export const listeningKeys = {
  recentlyPlayed: ['me', 'recently-played'] as const,
  stats: ['me', 'stats'] as const,
};

export function useRecentlyPlayed() {
  return useQuery({
    queryKey: listeningKeys.recentlyPlayed,
    queryFn: ({ signal }) => api(listeningApi.recentlyPlayed, { signal }),
    select: (data) => data.items,
  });
}

/** What the screen shows when there is nothing (or the call failed: spec §8, no error text). */
export const EMPTY_STATS: UserStats = {
  totalStreams: 0,
  totalHours: 0,
  completionRate: 0,
  completedStreams: 0,
  topArtists: [],
  topGenres: [],
  topSongs: [],
  activityData: [],
};

/** Spec §8: a stats failure is only logged; the screen then shows no data. */
export function useListeningStats(): { stats: UserStats; loading: boolean } {
  const { data, error, isPending } = useQuery({
    queryKey: listeningKeys.stats,
    queryFn: ({ signal }) => api(listeningApi.stats, { signal }),
  });
  useEffect(() => {
    if (error) console.error('Failed to load listening stats', error);
  }, [error]);
  return { stats: data ?? EMPTY_STATS, loading: isPending };
}
