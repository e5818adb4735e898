import Stripe from 'stripe';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../../core/validation/premium.rules.ts';
import {
  USER_METADATA_KEY,
  WebhookRejected,
  type PaymentEvent,
  type StripePayments,
  type SubscriptionSnapshot,
} from './payment-provider.ts';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  /** https://api.stripe.com, or a local fake in tests. */
  apiUrl: string;
  /** Where Checkout and the portal send the listener back (PUBLIC_URL). */
  publicUrl: string;
};

const seconds = (s: number) => new Date(s * 1000);
const idOf = (v: string | { id: string } | null | undefined) =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/** Customer search takes a quoted string: a user id is a UUID, but quote it safely anyway. */
const searchLiteral = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Periods moved from the subscription to its items in API 2025-03-31; older accounts' objects
 * (and webhooks pinned to an older version) still carry them at the top.
 */
function periodOf(sub: Stripe.Subscription): { start: number; end: number } | null {
  const item = sub.items?.data?.[0] as
    { current_period_start?: number; current_period_end?: number } | undefined;
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  const start = item?.current_period_start ?? legacy.current_period_start;
  const end = item?.current_period_end ?? legacy.current_period_end;
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : null;
}

const STATUSES: ReadonlySet<string> = new Set<SubscriptionSnapshot['status']>([
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
]);

/** Null for an object Canto cannot keep: no period, or a status newer than this code. */
export function snapshotOf(sub: Stripe.Subscription): SubscriptionSnapshot | null {
  const period = periodOf(sub);
  if (!period || period.end <= period.start || !STATUSES.has(sub.status)) return null;
  return {
    id: sub.id,
    customerId: idOf(sub.customer),
    userId: sub.metadata?.[USER_METADATA_KEY] || null,
    status: sub.status as SubscriptionSnapshot['status'],
    currentPeriodStart: seconds(period.start),
    currentPeriodEnd: seconds(period.end),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    canceledAt: sub.canceled_at ? seconds(sub.canceled_at) : null,
  };
}

/** The subscription an event is about, by the shape of its object. */
function eventOf(event: Stripe.Event): PaymentEvent {
  const object = event.data?.object as unknown as Record<string, unknown> | undefined;
  let subscriptionId: string | null = null;
  let userId: string | null = null;
  switch (object?.object) {
    case 'subscription':
      subscriptionId = typeof object.id === 'string' ? object.id : null;
      break;
    case 'checkout.session': {
      const session = object as unknown as Stripe.Checkout.Session;
      subscriptionId = idOf(session.subscription);
      userId = session.client_reference_id ?? session.metadata?.[USER_METADATA_KEY] ?? null;
      break;
    }
    case 'invoice': {
      // API 2025-03-31 and later: parent.subscription_details; before: invoice.subscription.
      const invoice = object as unknown as Stripe.Invoice & { subscription?: unknown };
      subscriptionId =
        idOf(invoice.parent?.subscription_details?.subscription) ??
        idOf(invoice.subscription as string | { id: string } | null | undefined);
      break;
    }
  }
  return { id: event.id, type: event.type, subscriptionId, userId, object: object ?? {} };
}

/** PAYMENTS=stripe through the official package: Checkout, the Billing Portal, webhooks. */
export function createStripePayments(settings: StripeSettings): StripePayments {
  const api = new URL(settings.apiUrl);
  const stripe = new Stripe(settings.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'http:' ? 80 : 443),
    protocol: api.protocol === 'http:' ? 'http' : 'https',
    // The package retries network failures with idempotency keys; a request never hangs.
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'Canto' },
  });
  const back = (query: string) => `${settings.publicUrl}/premium${query}`;

  return {
    kind: 'stripe',
    async findCustomer(userId) {
      const found = await stripe.customers.search({
        query: `metadata['${USER_METADATA_KEY}']:${searchLiteral(userId)}`,
        limit: 1,
      });
      return found.data[0]?.id ?? null;
    },
    async createCustomer(userId, email) {
      const customer = await stripe.customers.create(
        { email, metadata: { [USER_METADATA_KEY]: userId } },
        // Search lags behind writes: two checkouts in a row get the same customer from
        // Stripe's idempotency (24 h) instead of a second one.
        { idempotencyKey: `canto-customer-${userId}` },
      );
      return customer.id;
    },
    async createCheckout(userId, customerId) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        line_items: [{ price: settings.priceId, quantity: 1 }],
        client_reference_id: userId,
        metadata: { [USER_METADATA_KEY]: userId },
        subscription_data: { metadata: { [USER_METADATA_KEY]: userId } },
        success_url: back('?checkout=success'),
        cancel_url: back('?checkout=canceled'),
      });
      if (!session.url)
        throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { url: session.url };
    },
    async createPaymentCheckout(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              price_data: {
                currency: 'usd',
                unit_amount: request.amountCents,
                product_data: { name: request.description },
              },
              quantity: 1,
            },
          ],
          client_reference_id: request.reference,
          metadata: request.metadata,
          payment_intent_data: { metadata: request.metadata },
          success_url: `${settings.publicUrl}${request.successPath}`,
          cancel_url: `${settings.publicUrl}${request.cancelPath}`,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url)
        throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { id: session.id, url: session.url };
    },
    async createConnectedAccount(userId) {
      const account = await stripe.accounts.create(
        {
          type: 'express',
          capabilities: { transfers: { requested: true } },
          metadata: { [USER_METADATA_KEY]: userId },
        },
        { idempotencyKey: `canto-account-${userId}` },
      );
      return account.id;
    },
    async connectedAccountReady(accountId) {
      const account = await stripe.accounts.retrieve(accountId);
      return account.capabilities?.transfers === 'active';
    },
    async createAccountLink(accountId, returnPath) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: 'account_onboarding',
        refresh_url: `${settings.publicUrl}${returnPath}?stripe=refresh`,
        return_url: `${settings.publicUrl}${returnPath}?stripe=return`,
      });
      return { url: link.url };
    },
    async createTransfer({ accountId, amountCents, reference, metadata }) {
      const transfer = await stripe.transfers.create(
        {
          amount: amountCents,
          currency: 'usd',
          destination: accountId,
          transfer_group: reference,
          metadata,
        },
        { idempotencyKey: `canto-transfer-${reference}` },
      );
      return transfer.id;
    },
    async createPortal(customerId) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: back(''),
      });
      return { url: session.url };
    },
    verifyWebhook(rawBody, signature, now) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature ?? '',
          settings.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          now.getTime(),
        );
      } catch (e) {
        // A signed body that is not JSON fails in the parse after the signature check.
        if (e instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookRejected('signature', e.message.split('\n')[0]!);
        throw new WebhookRejected('body', (e as Error).message);
      }
      if (typeof event?.id !== 'string' || typeof event.type !== 'string' || !event.data)
        throw new WebhookRejected('body', 'not an event object');
      return eventOf(event);
    },
    async retrieveSubscription(id) {
      try {
        return snapshotOf(await stripe.subscriptions.retrieve(id));
      } catch (e) {
        if (e instanceof Stripe.errors.StripeError && e.statusCode === 404) return null;
        throw e;
      }
    },
    async userOfCustomer(customerId) {
      try {
        const customer = await stripe.customers.retrieve(customerId);
        return customer.deleted ? null : customer.metadata?.[USER_METADATA_KEY] || null;
      } catch (e) {
        if (e instanceof Stripe.errors.StripeError && e.statusCode === 404) return null;
        throw e;
      }
    },
  };
}
