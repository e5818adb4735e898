import type { Env } from '../../env.ts';
import { createLocalPayments } from './local.provider.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createStripePayments } from './stripe.provider.ts';

/**
 * The provider PAYMENTS selects; env.ts has already required Stripe's three values. The
 * local one signs its checkout links with a key derived from SECRET_KEY.
 */
export function createPaymentProvider(env: Env, secretKey: () => string): PaymentProvider {
  if (env.payments === 'local') return createLocalPayments({ secretKey: secretKey() });
  const { secretKey: stripeKey, webhookSecret, priceId, apiUrl } = env.stripe;
  if (!stripeKey || !webhookSecret || !priceId)
    throw new Error(
      'PAYMENTS=stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID',
    );
  return createStripePayments({
    secretKey: stripeKey,
    webhookSecret,
    priceId,
    apiUrl,
    publicUrl: env.publicUrl,
  });
}
