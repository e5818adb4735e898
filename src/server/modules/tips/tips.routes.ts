import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tipsApi } from '../../../contracts/api/tips.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { TipsService } from './tips.service.ts';

// Every tip route acts for the signed-in caller; paying is never the client's word (the local
// confirm is the test mode's payment, Stripe's is its webhook).
export const tipsRoutes =
  ({ tips }: { tips: TipsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, tipsApi.create, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tips'],
        summary:
          'Tip an artist $1–$100: the URL to pay at (Stripe Checkout, or the local test-mode page)',
      },
      handler: async (request, reply) => {
        const checkout = await tips.create(requirePrincipal(request).userId, request.body);
        return reply.code(201).send(checkout);
      },
    });

    contractRoute(app, tipsApi.get, {
      config: { access: 'signed-in' },
      schema: { tags: ['tips'], summary: "One of the caller's own tips" },
      handler: async (request) => tips.get(requirePrincipal(request).userId, request.params.id),
    });

    contractRoute(app, tipsApi.confirmLocal, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tips'],
        summary:
          "PAYMENTS=local: confirm the caller's own test-mode tip — paid once however often confirmed",
      },
      handler: async (request) =>
        tips.confirmLocal(requirePrincipal(request).userId, request.params.id),
    });
  };
