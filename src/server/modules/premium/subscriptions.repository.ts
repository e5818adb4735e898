import { and, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { paymentEvents, subscriptions, users } from '../../db/schema/index.ts';
import { isSqlState } from '../../db/sql-results.ts';
import type { SubscriptionSnapshot } from '../../providers/payments/payment-provider.ts';

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
type Provider = SubscriptionRow['provider'];

/**
 * Statuses that give premium while their period runs: active, and Stripe's trialing (a
 * trial is access the listener was granted). past_due, canceled and the rest do not.
 */
const ENTITLED = ['active', 'trialing'] as const;
/** Stripe never brings these back: a late snapshot that says otherwise is stale. */
const FINAL = sql`('canceled', 'incomplete_expired')`;

/** One transaction at a time per user (premium changes are rare; duplicates must not race). */
const lockUser = (tx: Pick<Db, 'execute'>, userId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`canto:premium:${userId}`}, 0))`);

const current = (userId: string, now: Date) =>
  and(
    eq(subscriptions.userId, userId),
    inArray(subscriptions.status, [...ENTITLED]),
    gt(subscriptions.currentPeriodEnd, now),
  );

export function createSubscriptionsRepository(db: Db) {
  /** An event that changes no subscription, kept so a redelivery is known as one. */
  const recordEvent = async (provider: Provider, eventId: string, type: string, now: Date) => {
    await db
      .insert(paymentEvents)
      .values({ provider, eventId, type, receivedAt: now })
      .onConflictDoNothing();
  };

  return {
    recordEvent,

    /** One indexed probe (subscriptions_user_period_idx). */
    async hasCurrent(userId: string, now: Date): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(subscriptions)
        .where(current(userId, now))
        .limit(1);
      return row !== undefined;
    },

    /** The subscription that gives premium now, else the one that ended last; null if none. */
    async latest(userId: string, now: Date): Promise<SubscriptionRow | null> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .orderBy(
          desc(
            sql`(${subscriptions.status} in ('active', 'trialing')
                 and ${subscriptions.currentPeriodEnd} > ${now.toISOString()}::timestamptz)`,
          ),
          desc(subscriptions.currentPeriodEnd),
        )
        .limit(1);
      return row ?? null;
    },

    async emailOf(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row?.email ?? null;
    },

    /** The Stripe customer Canto last stored for this user. */
    async stripeCustomerOf(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ customerId: subscriptions.providerCustomerId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            eq(subscriptions.provider, 'stripe'),
            isNotNull(subscriptions.providerCustomerId),
          ),
        )
        .orderBy(desc(subscriptions.createdAt))
        .limit(1);
      return row?.customerId ?? null;
    },

    /** The user a stored Stripe customer belongs to. */
    async userOfStripeCustomer(customerId: string): Promise<string | null> {
      const [row] = await db
        .select({ userId: subscriptions.userId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.provider, 'stripe'),
            eq(subscriptions.providerCustomerId, customerId),
          ),
        )
        .limit(1);
      return row?.userId ?? null;
    },

    async eventSeen(provider: Provider, eventId: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(paymentEvents)
        .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)))
        .limit(1);
      return row !== undefined;
    },

    /**
     * A local test-mode checkout confirmed: its session id is the event, recorded in the same
     * transaction as the new subscription, so a second confirm of the session changes
     * nothing, and a user who already has premium keeps the one subscription they have.
     */
    async confirmLocal(
      userId: string,
      sessionId: string,
      period: { start: Date; end: Date },
    ): Promise<'activated' | 'already-confirmed' | 'already-subscribed'> {
      return db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const recorded = await tx
          .insert(paymentEvents)
          .values({
            provider: 'local',
            eventId: `checkout:${sessionId}`,
            type: 'checkout.confirmed',
            receivedAt: period.start,
          })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.eventId });
        if (recorded.length === 0) return 'already-confirmed';
        const [existing] = await tx
          .select({ one: sql<number>`1` })
          .from(subscriptions)
          .where(current(userId, period.start))
          .limit(1);
        if (existing) return 'already-subscribed';
        await tx.insert(subscriptions).values({
          userId,
          provider: 'local',
          providerSubscriptionId: `local_${sessionId}`,
          status: 'active',
          currentPeriodStart: period.start,
          currentPeriodEnd: period.end,
          createdAt: period.start,
          updatedAt: period.start,
        });
        return 'activated';
      });
    },

    /**
     * The local manage page: cancel at the period's end (premium stays until then) or take
     * that back. Only the current local subscription; null when there is none.
     */
    async setLocalCancelAtPeriodEnd(
      userId: string,
      cancel: boolean,
      now: Date,
    ): Promise<SubscriptionRow | null> {
      const [row] = await db
        .update(subscriptions)
        .set({ cancelAtPeriodEnd: cancel, canceledAt: cancel ? now : null, updatedAt: now })
        .where(and(current(userId, now), eq(subscriptions.provider, 'local')))
        .returning();
      return row ?? null;
    },

    /**
     * A verified Stripe event and the subscription as Stripe has it, applied once: the event
     * id goes in with the subscription's new state in one transaction, so a redelivered event
     * changes nothing. A snapshot older than what is stored (a shorter period than the stored
     * one, or anything after a final status) is not written back (docs/decisions/0022).
     * Returns false when the event had been applied already.
     */
    async applyStripeEvent(
      event: { id: string; type: string },
      snapshot: SubscriptionSnapshot,
      userId: string,
      now: Date,
    ): Promise<boolean> {
      try {
        return await db.transaction(async (tx) => {
          await lockUser(tx, userId);
          const recorded = await tx
            .insert(paymentEvents)
            .values({ provider: 'stripe', eventId: event.id, type: event.type, receivedAt: now })
            .onConflictDoNothing()
            .returning({ id: paymentEvents.eventId });
          if (recorded.length === 0) return false;
          await tx
            .insert(subscriptions)
            .values({
              userId,
              provider: 'stripe',
              providerCustomerId: snapshot.customerId,
              providerSubscriptionId: snapshot.id,
              status: snapshot.status,
              currentPeriodStart: snapshot.currentPeriodStart,
              currentPeriodEnd: snapshot.currentPeriodEnd,
              cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
              canceledAt: snapshot.canceledAt,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoUpdate({
              target: [subscriptions.provider, subscriptions.providerSubscriptionId],
              set: {
                providerCustomerId: sql`coalesce(excluded.provider_customer_id, ${subscriptions.providerCustomerId})`,
                status: sql`excluded.status`,
                currentPeriodStart: sql`excluded.current_period_start`,
                currentPeriodEnd: sql`excluded.current_period_end`,
                cancelAtPeriodEnd: sql`excluded.cancel_at_period_end`,
                canceledAt: sql`excluded.canceled_at`,
                updatedAt: sql`excluded.updated_at`,
              },
              setWhere: sql`excluded.status in ${FINAL}
                or (${subscriptions.status} not in ${FINAL}
                    and excluded.current_period_end >= ${subscriptions.currentPeriodEnd})`,
            });
          return true;
        });
      } catch (e) {
        // The user named by Stripe's metadata is gone (an account removed since): nothing
        // to grant; the event is kept as seen.
        if (!isSqlState(e, '23503')) throw e;
        await recordEvent('stripe', event.id, event.type, now);
        return true;
      }
    },
  };
}
