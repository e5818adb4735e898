import { z } from 'zod';

/*
 * Premium (docs/decisions/0022; spec §2 Premium, §3 Subscription check result, §7
 * check-subscription, create-checkout, customer-portal). Times are ISO strings; money is cents.
 * Nothing a client sends can grant premium: only the local confirm (PAYMENTS=local) and
 * signature-verified Stripe webhooks (PAYMENTS=stripe) write subscriptions.
 */

/** GET /api/subscription: spec check-subscription. */
export const subscriptionStatus = z.object({ subscribed: z.boolean() });
export type SubscriptionStatus = z.infer<typeof subscriptionStatus>;

export const paymentProvider = z.enum(['local', 'stripe']);
export type PaymentProvider = z.infer<typeof paymentProvider>;

/** The caller's subscription as the premium and manage screens show it. */
export const subscriptionDto = z.object({
  provider: paymentProvider,
  status: z
    .enum([
      'incomplete',
      'incomplete_expired',
      'trialing',
      'active',
      'past_due',
      'canceled',
      'unpaid',
      'paused',
    ])
    .describe("Stripe's subscription statuses; the local provider uses active"),
  current_period_start: z.string().describe('ISO timestamp'),
  current_period_end: z.string().describe('ISO timestamp: renews (or ends) then'),
  cancel_at_period_end: z.boolean().describe('true: premium ends at current_period_end'),
});
export type SubscriptionDto = z.infer<typeof subscriptionDto>;

/** GET /api/premium: the plan, how this server takes payments, and the caller's state. */
export const premiumOverview = z.object({
  subscribed: z.boolean().describe('same answer as GET /api/subscription'),
  payments: paymentProvider.describe('local: test mode, no card is charged'),
  price_cents: z.number().int().describe('per month (spec §9: 999)'),
  subscription: subscriptionDto
    .nullable()
    .describe('the subscription that gives premium now, else the latest one; null if none'),
});
export type PremiumOverview = z.infer<typeof premiumOverview>;

/**
 * POST /api/premium/checkout (create-checkout) and /api/premium/portal (customer-portal):
 * where to send the listener, opened in a new tab. Stripe's pages are absolute URLs; the
 * local test-mode pages are paths on this site (the same origin as the caller).
 */
export const redirectUrl = z.object({ url: z.string() });
export type RedirectUrl = z.infer<typeof redirectUrl>;

/** A local test-mode checkout session, as create-checkout put it in the page's URL. */
export const localCheckoutSession = z.string().min(1).max(200);

export const localCheckoutQuery = z.object({ session: localCheckoutSession });
export type LocalCheckoutQuery = z.infer<typeof localCheckoutQuery>;

export const localCheckoutBody = z.object({ session: localCheckoutSession });
export type LocalCheckoutBody = z.infer<typeof localCheckoutBody>;

/** GET /api/premium/local/checkout: the session the checkout page shows. */
export const localCheckoutView = z.object({
  price_cents: z.number().int(),
  expires_at: z.string().describe('ISO timestamp'),
  confirmed: z.boolean().describe('already confirmed: confirming again changes nothing'),
});
export type LocalCheckoutView = z.infer<typeof localCheckoutView>;

/** POST /api/payments/stripe/webhook: Stripe needs only a 2xx. */
export const webhookReceived = z.object({ received: z.literal(true) });
