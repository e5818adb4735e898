import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { PremiumModule } from '../premium/premium.module.ts';
import type { RolesModule } from '../roles/roles.module.ts';
import { createTipsRepository } from './tips.repository.ts';
import { tipsRoutes } from './tips.routes.ts';
import { createTipsService, type TipRevenue } from './tips.service.ts';

export type { TipRevenue };
export type TipsModule = FeatureModule;

/**
 * Tips (docs/decisions/0029) under /api: a listener tips an artist through the server's one
 * payment provider (premium's); Stripe's events about tips arrive through premium's webhook
 * endpoint, verified and recorded once there, and are applied here.
 */
export function createTipsModule(
  ctx: ModuleContext,
  {
    premium,
    roles,
    revenue,
  }: {
    premium: Pick<PremiumModule, 'payments' | 'routeStripeEvents'>;
    roles: Pick<RolesModule, 'rolesOf'>;
    revenue: TipRevenue;
  },
): TipsModule {
  const repository = createTipsRepository(ctx.database.db);
  const tips = createTipsService({
    tips: repository,
    payments: premium.payments,
    isArtist: async (userId) => (await roles.rolesOf(userId)).includes('artist'),
    artistName: repository.displayNameOf,
    revenue,
    clock: ctx.clock,
    log: ctx.log,
  });
  premium.routeStripeEvents(tips.stripeEvents);
  return {
    name: 'tips',
    plugin: async (app) => {
      await app.register(tipsRoutes({ tips }), { prefix: '/api' });
    },
  };
}
