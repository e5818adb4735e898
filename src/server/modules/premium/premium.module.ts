import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import {
  createPaymentProvider,
  type PaymentSettings,
} from '../../providers/payments/create-payment-provider.ts';
import type { PaymentProvider } from '../../providers/payments/payment-provider.ts';
import { premiumRoutes } from './premium.routes.ts';
import { createPremiumService } from './premium.service.ts';
import { createStripeWebhooks, type StripeEventHandler } from './stripe-webhooks.service.ts';
import { stripeWebhookRoutes } from './stripe-webhook.routes.ts';
import { createSubscriptionsRepository } from './subscriptions.repository.ts';

export type PremiumModule = FeatureModule & {
  /** Whether the user has premium now (no ads, unlimited skips): for other modules. */
  isSubscribed(userId: string): Promise<boolean>;
  /** The server's one payment provider (PAYMENTS), for other modules that take payments. */
  payments: PaymentProvider;
  /**
   * Stripe's one webhook endpoint is premium's: another module's events (a tip's checkout, a
   * payout's transfer) reach it through here, verified and recorded once like premium's own.
   */
  routeStripeEvents(handler: StripeEventHandler): void;
};

export type { StripeEventHandler };

/**
 * Premium subscriptions (docs/decisions/0022), under /api: check-subscription,
 * create-checkout and customer-portal through the PAYMENTS provider, the local test mode's
 * confirm and cancel, and Stripe's webhook.
 */
export function createPremiumModule(
  ctx: ModuleContext,
  { settings }: { settings: PaymentSettings },
): PremiumModule {
  const payments = createPaymentProvider(settings, () => ctx.secretKey);
  const subscriptions = createSubscriptionsRepository(ctx.database.db);
  const premium = createPremiumService({ subscriptions, payments, clock: ctx.clock, log: ctx.log });
  const webhooks = createStripeWebhooks({
    subscriptions,
    payments,
    clock: ctx.clock,
    log: ctx.log,
  });
  return {
    name: 'premium',
    plugin: async (app) => {
      await app.register(premiumRoutes({ premium }), { prefix: '/api' });
      await app.register(stripeWebhookRoutes({ webhooks }), { prefix: '/api' });
    },
    isSubscribed: premium.isSubscribed,
    payments,
    routeStripeEvents: webhooks.route,
  };
}
