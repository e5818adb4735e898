// The artist's dashboard figures, read fresh on each visit: plays arrive all the time.
import { useQuery } from '@tanstack/react-query';
import { artistAnalyticsApi } from '@/contracts/api/artist-analytics.api.ts';
import { api } from '@/web/lib/api-client.ts';

export const dashboardKeys = { analytics: ['artist', 'analytics'] as const };

export function useArtistAnalytics() {
  return useQuery({
    queryKey: dashboardKeys.analytics,
    queryFn: ({ signal }) => api(artistAnalyticsApi.analytics, { signal }),
    staleTime: 0,
  });
}
