import type { FastifyPluginAsync } from 'fastify';
import { premiumApi } from '../../../contracts/api/premium.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { StripeWebhooks } from './stripe-webhooks.service.ts';

/**
 * Stripe's webhook endpoint. Public (Stripe has no session): the signature over the exact
 * bytes received is the authentication, so this scope keeps every body as a Buffer instead
 * of parsing it (a re-serialized body would no longer match its signature).
 */
export const stripeWebhookRoutes =
  ({ webhooks }: { webhooks: StripeWebhooks }): FastifyPluginAsync =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    contractRoute(app, premiumApi.stripeWebhook, {
      config: { access: 'public' },
      schema: {
        tags: ['premium'],
        summary:
          'Stripe webhook (PAYMENTS=stripe; 404 otherwise): signature-verified, each event applied once',
      },
      handler: async (request) =>
        webhooks.receive(
          Buffer.isBuffer(request.body) ? request.body : undefined,
          request.headers['stripe-signature'],
        ),
    });
  };
