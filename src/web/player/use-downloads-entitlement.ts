// Downloads play only for a subscriber: each answered subscription check (app start, and again
// whenever the network comes back) is stored where the player and the service worker read it,
// so a lapsed subscription stops its downloads at the next online check.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { recordSubscriptionCheck } from '@/web/lib/offline/downloads-state.ts';
import { useSession } from '@/web/session/use-session.ts';
import { subscriptionKey, useSubscription } from '@/web/session/use-subscription.ts';

export function useDownloadsEntitlement(): void {
  const qc = useQueryClient();
  const userId = useSession().user?.id ?? null;
  const subscription = useSubscription();
  // Only an answer counts: offline the check fails and the last answer stands.
  const subscribed = subscription.isSuccess ? subscription.data.subscribed : undefined;

  useEffect(() => {
    if (userId && subscribed !== undefined) void recordSubscriptionCheck(userId, subscribed);
  }, [userId, subscribed]);

  useEffect(() => {
    const recheck = () => void qc.invalidateQueries({ queryKey: subscriptionKey });
    window.addEventListener('online', recheck);
    return () => window.removeEventListener('online', recheck);
  }, [qc]);
}
