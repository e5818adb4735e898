import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;

/**
 * Statuses that give premium while their period runs: active, and Stripe's trialing (a
 * trial is access the listener was granted). past_due, canceled and the rest do not.
 */
const ENTITLED = ['active', 'trialing'] as const;

export function createSubscriptionsRepository(db: Db) {
  return {
    /** One indexed probe (subscriptions_user_period_idx). */
    async hasCurrent(userId: string, now: Date): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            inArray(subscriptions.status, [...ENTITLED]),
            gt(subscriptions.currentPeriodEnd, now),
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}
