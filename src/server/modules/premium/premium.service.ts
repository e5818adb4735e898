import type {
  LocalCheckoutView,
  PremiumOverview,
  RedirectUrl,
  SubscriptionDto,
  SubscriptionStatus,
} from '../../../contracts/premium.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  addMonths,
  PREMIUM_PRICE_CENTS,
  premiumMessages,
} from '../../../core/validation/premium.rules.ts';
import type {
  LocalPayments,
  PaymentProvider,
  StripePayments,
} from '../../providers/payments/payment-provider.ts';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.ts';
import type { Log } from '../../log.ts';

export type PremiumService = ReturnType<typeof createPremiumService>;

const toDto = (row: SubscriptionRow): SubscriptionDto => ({
  provider: row.provider,
  status: row.status,
  current_period_start: row.currentPeriodStart.toISOString(),
  current_period_end: row.currentPeriodEnd.toISOString(),
  cancel_at_period_end: row.cancelAtPeriodEnd,
});

/**
 * Premium (docs/decisions/0022): whether a user is subscribed, create-checkout and customer-portal
 * through the configured payment provider, and the local test mode's confirm and cancel.
 * Nothing here takes a client's word for premium: a subscription is written only by a
 * confirmed local checkout or by a verified Stripe webhook (stripe-webhooks.service.ts).
 */
export function createPremiumService({
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
  /** check-subscription: an active (or trialing) subscription whose period has not ended. */
  const isSubscribed = (userId: string) => subscriptions.hasCurrent(userId, clock.now());

  async function overview(userId: string): Promise<PremiumOverview> {
    const subscribed = await isSubscribed(userId);
    const latest = await subscriptions.latest(userId, clock.now());
    return {
      subscribed,
      payments: payments.kind,
      price_cents: PREMIUM_PRICE_CENTS,
      subscription: latest ? toDto(latest) : null,
    };
  }

  function local(): LocalPayments {
    if (payments.kind !== 'local') throw new AppError(ErrorCode.notFound, premiumMessages.localOff);
    return payments;
  }

  /** The session of a checkout link made for this user by this server, still open. */
  function openSession(userId: string, session: string) {
    const opened = local().openCheckout(session, userId, clock.now());
    if (opened === 'invalid')
      throw new AppError(ErrorCode.validation, premiumMessages.checkoutInvalid);
    if (opened === 'expired')
      throw new AppError(ErrorCode.validation, premiumMessages.checkoutExpired);
    return opened;
  }

  /** A failure of the payment service is Canto's problem, not the listener's input. */
  async function atStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      log.error({ err: e }, `stripe: ${what} failed`);
      throw new AppError(ErrorCode.internal, 'The payment service could not be reached');
    }
  }

  async function stripeCustomer(stripe: StripePayments, userId: string): Promise<string> {
    const known =
      (await subscriptions.stripeCustomerOf(userId)) ??
      (await atStripe('customer search', () => stripe.findCustomer(userId)));
    if (known) return known;
    const email = await subscriptions.emailOf(userId);
    if (!email) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
    return atStripe('customer create', () => stripe.createCustomer(userId, email));
  }

  return {
    isSubscribed,
    overview,

    async status(userId: string): Promise<SubscriptionStatus> {
      return { subscribed: await isSubscribed(userId) };
    },

    /** create-checkout: where to pay. Refused while premium runs: one subscription per user. */
    async createCheckout(userId: string): Promise<RedirectUrl> {
      if (await isSubscribed(userId))
        throw new AppError(ErrorCode.conflict, premiumMessages.alreadySubscribed);
      if (payments.kind === 'local')
        return { url: payments.createCheckout(userId, clock.now()).url };
      const customerId = await stripeCustomer(payments, userId);
      return atStripe('checkout session', () => payments.createCheckout(userId, customerId));
    },

    /** customer-portal: where to manage (cancel) the subscription. */
    async createPortal(userId: string): Promise<RedirectUrl> {
      if (payments.kind === 'local') {
        if (!(await subscriptions.latest(userId, clock.now())))
          throw new AppError(ErrorCode.notFound, premiumMessages.nothingToManage);
        return { url: payments.portalUrl() };
      }
      const customerId =
        (await subscriptions.stripeCustomerOf(userId)) ??
        (await atStripe('customer search', () => payments.findCustomer(userId)));
      if (!customerId) throw new AppError(ErrorCode.notFound, premiumMessages.nothingToManage);
      return atStripe('portal session', () => payments.createPortal(customerId));
    },

    /** The local checkout page's session: only its own user may see or confirm it. */
    async localCheckout(userId: string, session: string): Promise<LocalCheckoutView> {
      const { sessionId, expiresAt } = openSession(userId, session);
      return {
        price_cents: PREMIUM_PRICE_CENTS,
        expires_at: expiresAt.toISOString(),
        confirmed: await subscriptions.eventSeen('local', `checkout:${sessionId}`),
      };
    },

    /** Confirm on the test-mode page: one month of premium, once per session. */
    async confirmLocalCheckout(userId: string, session: string): Promise<PremiumOverview> {
      const { sessionId } = openSession(userId, session);
      const now = clock.now();
      await subscriptions.confirmLocal(userId, sessionId, { start: now, end: addMonths(now, 1) });
      return overview(userId);
    },

    /** The local manage page: cancel at the period's end, or take the cancellation back. */
    async setLocalCancelAtPeriodEnd(userId: string, cancel: boolean): Promise<PremiumOverview> {
      local();
      const row = await subscriptions.setLocalCancelAtPeriodEnd(userId, cancel, clock.now());
      if (!row) throw new AppError(ErrorCode.notFound, premiumMessages.nothingToManage);
      return overview(userId);
    },
  };
}
