// The AI music companion panel's gate (spec §2: subscribers only). The panel itself, with its
// socket and audio code, is its own chunk, downloaded only by a subscriber's Home.
import { lazy, Suspense } from 'react';
import { useSubscription } from '@/web/session/use-subscription.ts';

const Companion = lazy(() => import('./companion-panel-view.tsx'));

/** Only for a listener the subscription check calls subscribed; the server refuses others. */
export function CompanionPanel() {
  const subscription = useSubscription();
  if (!subscription.isSuccess || !subscription.data.subscribed) return null;
  return (
    <Suspense fallback={null}>
      <Companion />
    </Suspense>
  );
}
