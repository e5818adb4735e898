import { createLocalPayments } from './local.provider.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createStripePayments } from './stripe.provider.ts';

export type PaymentSettings = {
  /** PAYMENTS: the local test mode or Stripe. */
  provider: 'local' | 'stripe';
  /** STRIPE_*: env.ts has already required the three keys for PAYMENTS=stripe. */
  stripe: { secretKey?: string; webhookSecret?: string; priceId?: string; apiUrl: string };
  /** PUBLIC_URL: where Checkout and the Billing Portal send the listener back. */
  publicUrl: string;
};

/**
 * The provider PAYMENTS selects. The local one signs its checkout links with a key derived
 * from SECRET_KEY.
 */
export function createPaymentProvider(
  settings: PaymentSettings,
  secretKey: () => string,
): PaymentProvider {
  if (settings.provider === 'local') return createLocalPayments({ secretKey: secretKey() });
  const { secretKey: stripeKey, webhookSecret, priceId, apiUrl } = settings.stripe;
  if (!stripeKey || !webhookSecret || !priceId)
    throw new Error(
      'PAYMENTS=stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID',
    );
  return createStripePayments({
    secretKey: stripeKey,
    webhookSecret,
    priceId,
    apiUrl,
    publicUrl: settings.publicUrl,
  });
}
