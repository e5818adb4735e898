import type { FastifyPluginAsync } from 'fastify';
import { webhookReceived } from '../../../contracts/premium.contract.ts';
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
    app.post(
      '/payments/stripe/webhook',
      {
        config: { access: 'public' },
        schema: {
          tags: ['premium'],
          summary:
            'Stripe webhook (PAYMENTS=stripe; 404 otherwise): signature-verified, each event applied once',
          response: { 200: webhookReceived },
        },
      },
      async (request) =>
        webhooks.receive(
          Buffer.isBuffer(request.body) ? request.body : undefined,
          request.headers['stripe-signature'],
        ),
    );
  };
