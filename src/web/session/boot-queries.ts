// The answers every signed-in screen waits for, asked for as soon as the entry script runs
// instead of when the route guards first render: the session, then the listener's
// subscription. The server hinted both beside the scripts (preload), so these calls pick up
// answers already on their way: docs/decisions/0026-first-load.md.
import type { QueryClient } from '@tanstack/react-query';
import { owesSecondFactor, sessionQuery } from './use-session.ts';
import { subscriptionQuery } from './use-subscription.ts';

export function startBootQueries(qc: QueryClient): void {
  void qc.prefetchQuery(sessionQuery).then(() => {
    const session = qc.getQueryData(sessionQuery.queryKey);
    // A session that owes its second factor sees only the challenge, which needs no subscription.
    if (session && !owesSecondFactor(session))
      void qc.prefetchQuery(subscriptionQuery(session.user.id));
  });
}
