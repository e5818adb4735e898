import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { socialApi } from '../../../contracts/api/social.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { FollowsService } from './follows.service.ts';

export const followsRoutes =
  ({ follows }: { follows: FollowsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, socialApi.follow, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['social'],
        summary: 'Follow a user (idempotent; oneself is 400, an unknown user 404)',
      },
      handler: async (request) =>
        follows.follow(requirePrincipal(request).userId, request.params.userId),
    });

    contractRoute(app, socialApi.unfollow, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['social'],
        summary: 'Unfollow a user (idempotent; oneself is 400, an unknown user 404)',
      },
      handler: async (request) =>
        follows.unfollow(requirePrincipal(request).userId, request.params.userId),
    });

    contractRoute(app, socialApi.following, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['social'],
        summary: 'Who the caller follows, newest follow first, with their counts',
      },
      handler: async (request) =>
        follows.following(requirePrincipal(request).userId, request.query),
    });
  };
