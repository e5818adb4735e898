// The listener's subscription check (GET /api/subscription), app-wide: the player's premium
// flag (skips), the Home ad card and the top bar's Premium mark read this one query, so one
// request answers all three.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { premiumApi } from '@/contracts/api/premium.api.ts';
import { api } from '@/web/lib/api-client.ts';
import { useSession } from './use-session.ts';

/** Every user's check starts with this key: invalidating it refreshes them all. */
export const subscriptionKey = ['subscription'] as const;

/**
 * check-subscription for the signed-in user. Not retried: a failure counts as free (spec §4),
 * and each reader says what it does while the answer is pending or failed.
 */
export const subscriptionQuery = (userId: string | null) =>
  queryOptions({
    queryKey: [...subscriptionKey, userId],
    queryFn: () => api(premiumApi.subscription),
    enabled: userId !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useSubscription() {
  return useQuery(subscriptionQuery(useSession().user?.id ?? null));
}
