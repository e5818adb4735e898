// Premium's data in the browser: the overview (GET /api/premium), create-checkout and
// customer-portal opened in a new tab, and one refresh of everything premium decides (the
// player's subscription check, ads, these screens) after a change.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { premiumApi } from '@/contracts/api/premium.api.ts';
import type { PremiumOverview, RedirectUrl } from '@/contracts/premium.contract.ts';
import { premiumMessages } from '@/core/validation/premium.rules.ts';
import { api } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { subscriptionKey, useSubscription } from '@/web/session/use-subscription.ts';

export const premiumKey = (userId: string | null) => ['premium', userId] as const;

/** Everything that follows the subscription: the app-wide subscription check too. */
export function refreshPremium(qc: QueryClient): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['premium'] }),
    qc.invalidateQueries({ queryKey: subscriptionKey }),
  ]).then(() => undefined);
}

/** Whether the listener has premium; a failed check counts as free (spec §4). */
export function useSubscribed(): boolean {
  return useSubscription().data?.subscribed === true;
}

export function usePremiumOverview() {
  const userId = useSession().user?.id ?? null;
  return useQuery({
    queryKey: premiumKey(userId),
    queryFn: () => api(premiumApi.overview),
    enabled: userId !== null,
  });
}

/**
 * Opens `load()`'s URL in a new tab. The tab is opened at the click, before the request,
 * because browsers only allow a new window during the click itself; if the browser still
 * refuses one, this tab goes there instead.
 */
async function openInNewTab(load: () => Promise<RedirectUrl>): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await load();
    if (tab && !tab.closed) {
      // The payment page gets no handle on this one (reverse tabnabbing).
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.location.assign(url);
    }
  } catch (e) {
    tab?.close();
    throw e;
  }
}

function useOpenInNewTab(
  route: typeof premiumApi.checkout | typeof premiumApi.portal,
  failed: string,
) {
  return useMutation({
    mutationFn: () => openInNewTab(() => api(route)),
    onError: () => toast.error('Error', { description: failed }),
  });
}

/** 'Get Premium': create-checkout in a new tab (spec §7), 'Failed to start checkout'. */
export const useStartCheckout = () =>
  useOpenInNewTab(premiumApi.checkout, premiumMessages.checkoutFailed);

/** 'Manage Subscription': customer-portal in a new tab (spec §7). */
export const useOpenPortal = () => useOpenInNewTab(premiumApi.portal, premiumMessages.portalFailed);

/** A local test-mode change (confirm, cancel, resume) that answers the new overview. */
export function usePremiumChange<A>(request: (arg: A) => Promise<PremiumOverview>) {
  const qc = useQueryClient();
  const userId = useSession().user?.id ?? null;
  return useMutation({
    mutationFn: request,
    onSuccess: (overview) => {
      qc.setQueryData(premiumKey(userId), overview);
      void refreshPremium(qc);
      announcePremiumChanged();
    },
  });
}

const CHANNEL = 'canto:premium';

/** Tells this browser's other Canto tabs (the one that opened checkout) to look again. */
export function announcePremiumChanged(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/**
 * Keeps premium current without a reload: refreshes when another tab announces a change
 * (checkout confirmed, cancelled) and when the listener comes back to this tab (from
 * Stripe's pages, which cannot announce anything).
 */
export function subscribePremiumChanges(qc: QueryClient): () => void {
  const refresh = () => void refreshPremium(qc);
  const onVisible = () => {
    if (document.visibilityState === 'visible') refresh();
  };
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  channel?.addEventListener('message', refresh);
  window.addEventListener('focus', refresh);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    channel?.close();
    window.removeEventListener('focus', refresh);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
