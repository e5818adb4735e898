import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PremiumModule } from '../premium/premium.module.ts';
import type { WithdrawalPayouts, WithdrawalsModule } from '../withdrawals/withdrawals.module.ts';
import { payoutsRoutes } from './payouts.routes.ts';
import { createPayoutsService } from './payouts.service.ts';

export type PayoutsModule = FeatureModule & {
  /** What the withdrawals module pays approved stripe-method requests with. */
  withdrawalPayouts: WithdrawalPayouts;
};

/**
 * Payouts through the provider (docs/decisions/0029) under /api: Stripe Connect onboarding
 * for artists, transfers for approved stripe-method withdrawals, and the transfers' webhook
 * events (through premium's one endpoint). The withdrawals module is made after this one
 * (it takes `withdrawalPayouts`), so it is reached through a getter.
 */
export function createPayoutsModule(
  ctx: Pick<ModuleContext, 'log'>,
  {
    premium,
    withdrawals,
  }: {
    premium: Pick<PremiumModule, 'payments' | 'routeStripeEvents'>;
    withdrawals: () => Pick<WithdrawalsModule, 'settle' | 'payoutAccountOf' | 'setPayoutAccount'>;
  },
): PayoutsModule {
  const payouts = createPayoutsService({
    payments: premium.payments,
    withdrawals,
    log: ctx.log,
  });
  premium.routeStripeEvents(payouts.stripeEvents);
  return {
    name: 'payouts',
    plugin: async (app) => {
      await app.register(payoutsRoutes({ payouts }), { prefix: '/api' });
    },
    withdrawalPayouts: payouts.withdrawalPayouts,
  };
}
