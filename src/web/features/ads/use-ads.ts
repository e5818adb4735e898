// The ads API as the web app uses it: the admin inventory, the Home card's get-active-ads and
// its impression, and whether this listener sees ads at all.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdImpressionBody,
  AdminAdDto,
  AdminAdList,
  AdminAdListItem,
} from '@/contracts/ads.contract.ts';
import { adsApi } from '@/contracts/api/ads.api.ts';
import { api } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { useSubscription } from '@/web/session/use-subscription.ts';

export const adKeys = {
  admin: ['admin', 'ads'] as const,
  active: (userId: string | null) => ['ads', 'active', userId] as const,
};

/**
 * Whether to show ads: true once the subscription check says "not subscribed", or failed
 * (spec §8: only logged; not subscribed). Undefined while it runs, so a subscriber's Home
 * never asks for an ad.
 */
export function useShowsAds(): boolean | undefined {
  const subscription = useSubscription();
  if (subscription.isError) return true;
  if (!subscription.isSuccess) return undefined;
  return !subscription.data.subscribed;
}

/**
 * A showing, once per Home visit: every answer is a new showing (the server writes it and caps
 * how often), so it is never cached beyond the card that asked (gcTime 0) nor asked again
 * while that card stays.
 */
export function useActiveAd(enabled: boolean) {
  const userId = useSession().user?.id ?? null;
  return useQuery({
    queryKey: adKeys.active(userId),
    queryFn: ({ signal }) => api(adsApi.issueShowing, { signal }),
    enabled: enabled && userId !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export function recordImpression(body: AdImpressionBody) {
  return api(adsApi.recordImpression, { body });
}

/** The admin inventory; asked again every 2 s while an ad's audio is processing. */
export function useAdminAds() {
  return useQuery({
    queryKey: adKeys.admin,
    queryFn: ({ signal }) => api(adsApi.all, { signal }),
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.items.some((ad) => ad.status === 'processing') ? 2000 : false,
  });
}

/**
 * Puts a saved ad into the cached list. Only the list counts impressions: an edited ad keeps
 * the counts it had, a new one has none yet.
 */
function useInventoryUpdate() {
  const client = useQueryClient();
  return (ad: AdminAdDto) => {
    const fresh: AdminAdListItem = { ...ad, impressions: 0, impressions_30d: 0 };
    client.setQueryData<AdminAdList>(adKeys.admin, (d) => {
      if (!d) return { items: [fresh] };
      const known = d.items.some((a) => a.id === ad.id);
      return {
        items: known
          ? d.items.map((a) => (a.id === ad.id ? { ...a, ...ad } : a))
          : [fresh, ...d.items],
      };
    });
  };
}

/** Creates (no id) or edits an ad from its form. */
export function useSaveAd() {
  const update = useInventoryUpdate();
  return useMutation({
    mutationFn: ({ id, form }: { id: string | null; form: FormData }) =>
      id ? api(adsApi.update, { params: { id }, body: form }) : api(adsApi.create, { body: form }),
    onSuccess: update,
  });
}

export function useSetAdActive() {
  const update = useInventoryUpdate();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      api(adsApi.setActive, { params: { id }, body: { active } }),
    onSuccess: update,
  });
}
