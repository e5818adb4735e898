import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { payoutsApi } from '../../../contracts/api/payouts.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { PayoutsService } from './payouts.service.ts';

// Artists only, each for their own connected account.
export const payoutsRoutes =
  ({ payouts }: { payouts: PayoutsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, payoutsApi.stripeAccount, {
      config: { access: 'artist' },
      schema: {
        tags: ['payouts'],
        summary: "The caller's Stripe connected account for payouts: connected, ready",
      },
      handler: async (request) => payouts.account(requirePrincipal(request).userId),
    });

    contractRoute(app, payoutsApi.stripeOnboard, {
      config: { access: 'artist' },
      schema: {
        tags: ['payouts'],
        summary:
          "PAYMENTS=stripe (404 otherwise): Stripe Connect onboarding for the caller's connected account, made once",
      },
      handler: async (request) => payouts.onboard(requirePrincipal(request).userId),
    });
  };
