import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { libraryApi } from '../../../contracts/api/library.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { LikesService } from './likes.service.ts';

export const likesRoutes =
  ({ likes }: { likes: LikesService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, libraryApi.like, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['library'],
        summary: 'Like a song (idempotent; a missing or external catalogue song is 404)',
      },
      handler: async (request, reply) => {
        await likes.like(requirePrincipal(request).userId, request.params.songId);
        return reply.status(204).send();
      },
    });

    contractRoute(app, libraryApi.unlike, {
      config: { access: 'signed-in' },
      schema: { tags: ['library'], summary: 'Unlike a song (idempotent)' },
      handler: async (request, reply) => {
        await likes.unlike(requirePrincipal(request).userId, request.params.songId);
        return reply.status(204).send();
      },
    });

    contractRoute(app, libraryApi.likedSongs, {
      config: { access: 'signed-in' },
      schema: { tags: ['library'], summary: "The caller's liked songs, newest like first" },
      handler: async (request) => likes.list(requirePrincipal(request).userId),
    });

    contractRoute(app, libraryApi.likedSongIds, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['library'], // One set per page rather than a call per card: a grid of 50 cards would otherwise
        // make 50 requests, and every card reads its state from the same cached answer.
        summary: 'The ids of every song the caller likes (the like buttons read this set)',
      },
      handler: async (request) => likes.ids(requirePrincipal(request).userId),
    });
  };
