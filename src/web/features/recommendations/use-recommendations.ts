// The listener's recommendations (docs/decisions/0032), read fresh on each visit: a play on
// another screen changes what is "just played".
import { useQuery } from '@tanstack/react-query';
import { recommendationsApi } from '@/contracts/api/recommendations.api.ts';
import { api } from '@/web/lib/api-client.ts';

export const recommendationKeys = {
  list: (limit: number) => ['me', 'recommendations', limit] as const,
};

export function useRecommendations(limit: number) {
  return useQuery({
    queryKey: recommendationKeys.list(limit),
    queryFn: ({ signal }) => api(recommendationsApi.list, { query: { limit }, signal }),
    staleTime: 0,
  });
}
