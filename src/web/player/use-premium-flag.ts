// The free listener's limits in the provider: the machine's premium flag follows the one
// subscription query, the skip clock ticks (the counter's reset is checked every 60 s, spec
// §4), and a refused skip shows its toast.
import { useEffect, useState, type Dispatch } from 'react';
import { toast } from 'sonner';
import type { PlayerEvent } from '@/core/player/player-machine.ts';
import { useSubscription } from '@/web/session/use-subscription.ts';
import { PremiumFlag, skipLimitToast } from './premium-flag.ts';
import { useDownloadsEntitlement } from './use-downloads-entitlement.ts';

/** Spec §4: the skip counter's reset is checked every 60 s. */
const SKIP_CLOCK_MS = 60_000;

export function usePremiumFlag(dispatch: Dispatch<PlayerEvent>, skipBlockedAt: number | null) {
  const [flag] = useState(() => new PremiumFlag(dispatch));
  const subscription = useSubscription();
  useDownloadsEntitlement();
  const subscribed = subscription.data?.subscribed;
  const error = subscription.isError ? subscription.error : null;
  useEffect(() => flag.follow({ subscribed, error }), [flag, subscribed, error]);

  useEffect(() => {
    const timer = setInterval(
      () => dispatch({ type: 'skipClockTicked', at: Date.now() }),
      SKIP_CLOCK_MS,
    );
    return () => clearInterval(timer);
  }, [dispatch]);

  useEffect(
    () =>
      skipLimitToast(skipBlockedAt, (title, description) => toast.error(title, { description })),
    [skipBlockedAt],
  );
}
