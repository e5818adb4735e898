import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  localCheckoutBody,
  localCheckoutQuery,
  localCheckoutView,
  premiumOverview,
  redirectUrl,
  subscriptionStatus,
} from '../../../contracts/premium.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { PremiumService } from './premium.service.ts';

// Every premium route acts for the signed-in caller only; no body field can grant premium
// (create-checkout and customer-portal take none, and whatever is sent is ignored).
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

    app.get(
      '/premium',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary: "The plan, this server's payment provider and the caller's subscription",
          response: { 200: premiumOverview },
        },
      },
      async (request) => premium.overview(requirePrincipal(request).userId),
    );

    app.post(
      '/premium/checkout',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary:
            'create-checkout: the URL to pay at (Stripe Checkout, or the local test-mode page); 409 while subscribed',
          response: { 200: redirectUrl },
        },
      },
      async (request) => premium.createCheckout(requirePrincipal(request).userId),
    );

    app.post(
      '/premium/portal',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary:
            'customer-portal: the URL to manage the subscription at (Stripe Billing Portal, or the local manage page)',
          response: { 200: redirectUrl },
        },
      },
      async (request) => premium.createPortal(requirePrincipal(request).userId),
    );

    app.get(
      '/premium/local/checkout',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary: "PAYMENTS=local: a test-mode checkout session of the caller's (404 otherwise)",
          querystring: localCheckoutQuery,
          response: { 200: localCheckoutView },
        },
      },
      async (request) =>
        premium.localCheckout(requirePrincipal(request).userId, request.query.session),
    );

    app.post(
      '/premium/local/checkout/confirm',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary:
            "PAYMENTS=local: confirm the caller's own test-mode checkout — one month of premium, once per session",
          body: localCheckoutBody,
          response: { 200: premiumOverview },
        },
      },
      async (request) =>
        premium.confirmLocalCheckout(requirePrincipal(request).userId, request.body.session),
    );

    app.post(
      '/premium/local/cancel',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary:
            'PAYMENTS=local: cancel at the end of the current period (premium stays until then)',
          response: { 200: premiumOverview },
        },
      },
      async (request) => premium.setLocalCancelAtPeriodEnd(requirePrincipal(request).userId, true),
    );

    app.post(
      '/premium/local/resume',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['premium'],
          summary: 'PAYMENTS=local: take back a cancellation before the period ends',
          response: { 200: premiumOverview },
        },
      },
      async (request) => premium.setLocalCancelAtPeriodEnd(requirePrincipal(request).userId, false),
    );
  };
