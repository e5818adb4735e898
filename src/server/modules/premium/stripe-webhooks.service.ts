import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import { premiumMessages } from '../../../core/validation/premium.rules.ts';
import {
  WebhookRejected,
  type PaymentEvent,
  type PaymentProvider,
  type StripePayments,
  type SubscriptionSnapshot,
} from '../../providers/payments/payment-provider.ts';
import type { SubscriptionsRepository } from './subscriptions.repository.ts';
import type { Log } from '../../log.ts';

export type StripeWebhooks = ReturnType<typeof createStripeWebhooks>;

/**
 * Another module's share of the one Stripe endpoint (tips' one-time checkouts, payouts'
 * transfers): the verified events it claims, which premium records as seen once applied.
 */
export type StripeEventHandler = {
  name: string;
  claims(event: PaymentEvent): boolean;
  /** Applies the event; must itself be idempotent (two deliveries may race past the record). */
  apply(event: PaymentEvent): Promise<void>;
};

/** The events that can change a subscription; others are acknowledged only. */
const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
]);

const asUser = (v: string | null | undefined) => (v && isUuid(v) ? v.toLowerCase() : null);

/**
 * PAYMENTS=stripe: subscription state comes only from here (docs/decisions/0022). Each
 * verified event makes Canto fetch the subscription it names from Stripe and store that
 * state, so events delivered late or out of order cannot leave an older state behind; the
 * event id is recorded with the write, so a redelivery changes nothing. Events for one
 * subscription are handled one after another in this process.
 */
export function createStripeWebhooks({
  subscriptions,
  payments,
  clock,
  log,
}: {
  subscriptions: SubscriptionsRepository;
  payments: PaymentProvider;
  clock: Clock;
  log: Log;
}) {
  const handlers: StripeEventHandler[] = [];
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(key) ?? Promise.resolve()).then(work);
    const settled = run.catch(() => undefined);
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return run;
  }

  /** Whom the subscription is for: its own metadata, the checkout's reference, its customer. */
  async function userOf(
    stripe: StripePayments,
    snapshot: SubscriptionSnapshot,
    event: PaymentEvent,
  ): Promise<string | null> {
    const named = asUser(snapshot.userId) ?? asUser(event.userId);
    if (named || !snapshot.customerId) return named;
    return (
      asUser(await subscriptions.userOfStripeCustomer(snapshot.customerId)) ??
      asUser(await stripe.userOfCustomer(snapshot.customerId))
    );
  }

  async function apply(stripe: StripePayments, event: PaymentEvent, subscriptionId: string) {
    const now = () => clock.now();
    const snapshot = await stripe.retrieveSubscription(subscriptionId);
    if (!snapshot) {
      log.warn(
        { event: event.id, subscriptionId },
        'stripe: the event names no usable subscription',
      );
      return subscriptions.recordEvent('stripe', event.id, event.type, now());
    }
    const userId = await userOf(stripe, snapshot, event);
    if (!userId) {
      log.warn({ event: event.id, subscriptionId }, 'stripe: a subscription of no Canto user');
      return subscriptions.recordEvent('stripe', event.id, event.type, now());
    }
    const applied = await subscriptions.applyStripeEvent(event, snapshot, userId, now());
    log.info(
      { event: event.id, type: event.type, subscriptionId, status: snapshot.status, applied },
      'stripe: webhook applied',
    );
  }

  return {
    /** Routes the events `handler` claims to it (before premium's own handling). */
    route(handler: StripeEventHandler) {
      handlers.push(handler);
    },

    /** POST /api/payments/stripe/webhook with the body exactly as it arrived. */
    async receive(rawBody: Buffer | undefined, signature: unknown): Promise<{ received: true }> {
      if (payments.kind !== 'stripe')
        throw new AppError(ErrorCode.notFound, premiumMessages.stripeOff);
      let event: PaymentEvent;
      try {
        event = payments.verifyWebhook(
          rawBody ?? Buffer.alloc(0),
          typeof signature === 'string' ? signature : undefined,
          clock.now(),
        );
      } catch (e) {
        if (!(e instanceof WebhookRejected)) throw e;
        log.warn({ reason: e.message }, 'stripe: webhook refused');
        throw new AppError(
          ErrorCode.validation,
          e.reason === 'signature' ? premiumMessages.webhookSignature : premiumMessages.webhookBody,
        );
      }
      const handler = handlers.find((h) => h.claims(event));
      if (handler) {
        if (await subscriptions.eventSeen('stripe', event.id)) return { received: true };
        await handler.apply(event);
        await subscriptions.recordEvent('stripe', event.id, event.type, clock.now());
        log.info(
          { event: event.id, type: event.type, to: handler.name },
          'stripe: webhook applied',
        );
        return { received: true };
      }
      if (!HANDLED.has(event.type)) return { received: true };
      // A redelivery costs no call to Stripe; the transaction's insert is what really decides.
      if (await subscriptions.eventSeen('stripe', event.id)) return { received: true };
      const subscriptionId = event.subscriptionId;
      if (!subscriptionId) {
        await subscriptions.recordEvent('stripe', event.id, event.type, clock.now());
        return { received: true };
      }
      await oneAtATime(subscriptionId, () => apply(payments, event, subscriptionId));
      return { received: true };
    },
  };
}
