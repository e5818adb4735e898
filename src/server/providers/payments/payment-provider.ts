/**
 * How listeners pay for premium (docs/decisions/0022). PAYMENTS picks one
 * provider at start; the premium module holds the rules and the rows, a provider only talks
 * to the payment service (or, for the local test mode, signs its own checkout links).
 */

/** A subscription as the payment service reports it, in the terms the subscriptions table keeps. */
export type SubscriptionSnapshot = {
  id: string;
  customerId: string | null;
  /** The Canto user the subscription was bought for (set at checkout); null if it names none. */
  userId: string | null;
  status:
    | 'incomplete'
    | 'incomplete_expired'
    | 'trialing'
    | 'active'
    | 'past_due'
    | 'canceled'
    | 'unpaid'
    | 'paused';
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
};

/** A verified webhook event, reduced to what decides the subscription it concerns. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** The subscription the event is about, or null (a one-off invoice, an unrelated event). */
  subscriptionId: string | null;
  /** The Canto user the event names itself (a checkout session's reference), if any. */
  userId: string | null;
  /**
   * The event's object as Stripe sent it (signature-verified), for the modules whose events
   * premium's endpoint routes to them (tips' one-time checkouts).
   */
  object: Record<string, unknown>;
};

/** A one-time Checkout (mode `payment`) of a fixed amount in USD. */
export type PaymentCheckoutRequest = {
  /** Canto's own id of what is paid for: the session's client_reference_id. */
  reference: string;
  amountCents: number;
  /** The line item's name on Stripe's page. */
  description: string;
  /** Kept on the session and its payment intent, e.g. { canto_tip_id }. */
  metadata: Record<string, string>;
  /** Paths under PUBLIC_URL Stripe sends the payer back to. */
  successPath: string;
  cancelPath: string;
  /** Stripe's idempotency key: a retried create answers the same session. */
  idempotencyKey: string;
};

export type CheckoutCustomer = {
  userId: string;
  email: string;
  /** The customer the service already knows for this user, if Canto has stored one. */
  customerId: string | null;
};

export interface LocalPayments {
  readonly kind: 'local';
  /** create-checkout: a path to Canto's own test-mode checkout page with a signed session. */
  createCheckout(userId: string, now: Date): { url: string; sessionId: string; expiresAt: Date };
  /**
   * The session a checkout link carries, if it was made for this user by this server and
   * has not expired; otherwise why not.
   */
  openCheckout(
    session: string,
    userId: string,
    now: Date,
  ): { sessionId: string; expiresAt: Date } | 'invalid' | 'expired';
  /** customer-portal: Canto's own manage page. */
  portalUrl(): string;
}

export interface StripePayments {
  readonly kind: 'stripe';
  /** The user's Stripe customer when Stripe knows one (found by the metadata Canto sets). */
  findCustomer(userId: string): Promise<string | null>;
  /** One customer per user: a retried create (same user) answers the same customer. */
  createCustomer(userId: string, email: string): Promise<string>;
  /** A Checkout Session in subscription mode for the configured price; its URL. */
  createCheckout(userId: string, customerId: string): Promise<{ url: string }>;
  /** A one-time payment Checkout Session; its id and URL. */
  createPaymentCheckout(request: PaymentCheckoutRequest): Promise<{ id: string; url: string }>;
  /**
   * Stripe Connect (payouts): an Express connected account for an artist, created once per
   * artist (idempotency key), its `canto_user_id` in metadata; onboarding asks the rest.
   */
  createConnectedAccount(userId: string): Promise<string>;
  /** Whether the connected account can take transfers now (its `transfers` capability). */
  connectedAccountReady(accountId: string): Promise<boolean>;
  /** A one-time onboarding link for the account, back to `returnPath` under PUBLIC_URL. */
  createAccountLink(accountId: string, returnPath: string): Promise<{ url: string }>;
  /**
   * A transfer of `amountCents` USD from the platform to the connected account; one per
   * `reference` (idempotency key), which metadata names too. Its id.
   */
  createTransfer(request: {
    accountId: string;
    amountCents: number;
    reference: string;
    metadata: Record<string, string>;
  }): Promise<string>;
  /** A Billing Portal session for the customer; its URL. */
  createPortal(customerId: string): Promise<{ url: string }>;
  /**
   * The event in a webhook request, after checking its signature against the raw body and
   * its age (WEBHOOK_TOLERANCE_SECONDS at `now`). Throws WebhookRejected otherwise.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined, now: Date): PaymentEvent;
  /** The subscription as Stripe has it now; null when Stripe knows no such subscription. */
  retrieveSubscription(id: string): Promise<SubscriptionSnapshot | null>;
  /** The Canto user a customer was created for (its metadata), if any. */
  userOfCustomer(customerId: string): Promise<string | null>;
}

export type PaymentProvider = LocalPayments | StripePayments;

/** A webhook request that is not a verified Stripe event: answered 400, nothing written. */
export class WebhookRejected extends Error {
  constructor(
    readonly reason: 'signature' | 'body',
    detail: string,
  ) {
    super(detail);
    this.name = 'WebhookRejected';
  }
}

/** The metadata key that ties Stripe customers, sessions and subscriptions to a Canto user. */
export const USER_METADATA_KEY = 'canto_user_id';
