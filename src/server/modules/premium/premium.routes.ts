import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { premiumApi } from '../../../contracts/api/premium.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { PremiumService } from './premium.service.ts';

// Every premium route acts for the signed-in caller only; no body field can grant premium
// (create-checkout and customer-portal take none, and whatever is sent is ignored).
export const premiumRoutes =
  ({ premium }: { premium: PremiumService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, premiumApi.subscription, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary: 'check-subscription: whether the caller has premium now',
      },
      handler: async (request) => premium.status(requirePrincipal(request).userId),
    });

    contractRoute(app, premiumApi.overview, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary: "The plan, this server's payment provider and the caller's subscription",
      },
      handler: async (request) => premium.overview(requirePrincipal(request).userId),
    });

    contractRoute(app, premiumApi.checkout, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary:
          'create-checkout: the URL to pay at (Stripe Checkout, or the local test-mode page); 409 while subscribed',
      },
      handler: async (request) => premium.createCheckout(requirePrincipal(request).userId),
    });

    contractRoute(app, premiumApi.portal, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary:
          'customer-portal: the URL to manage the subscription at (Stripe Billing Portal, or the local manage page)',
      },
      handler: async (request) => premium.createPortal(requirePrincipal(request).userId),
    });

    contractRoute(app, premiumApi.localCheckout, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary: "PAYMENTS=local: a test-mode checkout session of the caller's (404 otherwise)",
      },
      handler: async (request) =>
        premium.localCheckout(requirePrincipal(request).userId, request.query.session),
    });

    contractRoute(app, premiumApi.confirmLocalCheckout, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary:
          "PAYMENTS=local: confirm the caller's own test-mode checkout — one month of premium, once per session",
      },
      handler: async (request) =>
        premium.confirmLocalCheckout(requirePrincipal(request).userId, request.body.session),
    });

    contractRoute(app, premiumApi.cancelLocal, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary:
          'PAYMENTS=local: cancel at the end of the current period (premium stays until then)',
      },
      handler: async (request) =>
        premium.setLocalCancelAtPeriodEnd(requirePrincipal(request).userId, true),
    });

    contractRoute(app, premiumApi.resumeLocal, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['premium'],
        summary: 'PAYMENTS=local: take back a cancellation before the period ends',
      },
      handler: async (request) =>
        premium.setLocalCancelAtPeriodEnd(requirePrincipal(request).userId, false),
    });
  };
