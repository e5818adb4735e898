import type { SubscriptionStatus } from '../../../contracts/listening.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import type { SubscriptionsRepository } from './subscriptions.repository.ts';

export type PremiumService = ReturnType<typeof createPremiumService>;

/** Premium (product.md §5). Today: whether a user is subscribed; checkout and portal follow. */
export function createPremiumService({
  subscriptions,
  clock,
}: {
  subscriptions: SubscriptionsRepository;
  clock: Clock;
}) {
  return {
    /** check-subscription: an active subscription whose period has not ended. */
    async status(userId: string): Promise<SubscriptionStatus> {
      return { subscribed: await subscriptions.hasCurrent(userId, clock.now()) };
    },
  };
}
