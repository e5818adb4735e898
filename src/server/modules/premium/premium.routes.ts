import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { subscriptionStatus } from '../../../contracts/listening.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { PremiumService } from './premium.service.ts';

export const premiumRoutes =
  ({ premium }: { premium: PremiumService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/subscription',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary: 'check-subscription: whether the caller has premium now',
          response: { 200: subscriptionStatus },
        },
      },
      async (request) => premium.status(requirePrincipal(request).userId),
    );
  };
