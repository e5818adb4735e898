import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withdrawalsApi } from '../../../contracts/api/withdrawals.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { WithdrawalsService } from './withdrawals.service.ts';

export const withdrawalsRoutes =
  ({ withdrawals }: { withdrawals: WithdrawalsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, withdrawalsApi.balance, {
      config: { access: 'artist' },
      schema: {
        tags: ['withdrawals'],
        summary: "The artist's balance, available amount and pending requests, in cents",
      },
      handler: async (request) => withdrawals.balance(requirePrincipal(request).userId),
    });

    contractRoute(app, withdrawalsApi.mine, {
      config: { access: 'artist' },
      schema: { tags: ['withdrawals'], summary: "The artist's withdrawal requests, newest first" },
      handler: async (request) => ({
        items: await withdrawals.mine(requirePrincipal(request).userId),
      }),
    });

    contractRoute(app, withdrawalsApi.request, {
      config: { access: 'artist' },
      schema: {
        tags: ['withdrawals'],
        summary:
          'Request a withdrawal (amount in dollars, at least $10 and at most the available amount); an Idempotency-Key header makes a retry answer the first request',
      },
      handler: async (request, reply) => {
        const key = request.headers['idempotency-key'];
        const answer = await withdrawals.request(
          requirePrincipal(request).userId,
          request.body,
          Array.isArray(key) ? key.join(',') : key,
        );
        if (answer.replayed) void reply.header('idempotent-replayed', 'true');
        return reply.status(201).send(answer.body);
      },
    });

    contractRoute(app, withdrawalsApi.all, {
      config: { access: 'admin' },
      schema: { tags: ['admin'], summary: 'Every withdrawal request, newest first' },
      handler: async () => ({ items: await withdrawals.all() }),
    });

    contractRoute(app, withdrawalsApi.approve, {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Approve & Pay a pending withdrawal request (once; not one of your own)',
      },
      handler: async (request) =>
        withdrawals.approve(
          request.params.id,
          requirePrincipal(request).userId,
          request.body?.notes,
        ),
    });

    contractRoute(app, withdrawalsApi.reject, {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Reject a pending withdrawal request (once; not one of your own)',
      },
      handler: async (request) =>
        withdrawals.reject(
          request.params.id,
          requirePrincipal(request).userId,
          request.body?.notes,
        ),
    });
  };
