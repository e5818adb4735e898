import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { premiumRoutes } from './premium.routes.ts';
import { createPremiumService } from './premium.service.ts';
import { createSubscriptionsRepository } from './subscriptions.repository.ts';

export type PremiumModule = FeatureModule & {
  /** Whether the user has premium now (no ads, unlimited skips): for other modules. */
  isSubscribed(userId: string): Promise<boolean>;
};

/** Premium subscriptions (product.md §5), under /api: today the subscription check. */
export function createPremiumModule(ctx: ModuleContext): PremiumModule {
  const premium = createPremiumService({
    subscriptions: createSubscriptionsRepository(ctx.database.db),
    clock: ctx.clock,
  });
  const routes = premiumRoutes({ premium });
  return {
    name: 'premium',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api' })),
    isSubscribed: async (userId) => (await premium.status(userId)).subscribed,
  };
}
