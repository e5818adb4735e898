import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  followingList,
  followState,
  pageQuery,
  profileParams,
} from '../../../contracts/social.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { FollowsService } from './follows.service.ts';

export const followsRoutes =
  ({ follows }: { follows: FollowsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      '/follows/:userId',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: 'Follow a user (idempotent; oneself is 400, an unknown user 404)',
          params: profileParams,
          response: { 200: followState },
        },
      },
      async (request) => follows.follow(requirePrincipal(request).userId, request.params.userId),
    );

    app.delete(
      '/follows/:userId',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: 'Unfollow a user (idempotent; oneself is 400, an unknown user 404)',
          params: profileParams,
          response: { 200: followState },
        },
      },
      async (request) => follows.unfollow(requirePrincipal(request).userId, request.params.userId),
    );

    app.get(
      '/me/following',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['social'],
          summary: 'Who the caller follows, newest follow first, with their counts',
          querystring: pageQuery,
          response: { 200: followingList },
        },
      },
      async (request) => follows.following(requirePrincipal(request).userId, request.query),
    );
  };
