import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { likedSongIds, likedSongParams, likedSongs } from '../../../contracts/library.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { LikesService } from './likes.service.ts';

export const likesRoutes =
  ({ likes }: { likes: LikesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      '/me/liked-songs/:songId',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          summary: 'Like a song (idempotent; a missing or external catalogue song is 404)',
          params: likedSongParams,
        },
      },
      async (request, reply) => {
        await likes.like(requirePrincipal(request).userId, request.params.songId);
        return reply.status(204).send();
      },
    );

    app.delete(
      '/me/liked-songs/:songId',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          summary: 'Unlike a song (idempotent)',
          params: likedSongParams,
        },
      },
      async (request, reply) => {
        await likes.unlike(requirePrincipal(request).userId, request.params.songId);
        return reply.status(204).send();
      },
    );

    app.get(
      '/me/liked-songs',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          summary: "The caller's liked songs, newest like first",
          response: { 200: likedSongs },
        },
      },
      async (request) => likes.list(requirePrincipal(request).userId),
    );

    app.get(
      '/me/liked-songs/ids',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          // One set per page rather than a call per card: a grid of 50 cards would otherwise
          // make 50 requests, and every card reads its state from the same cached answer.
          summary: 'The ids of every song the caller likes (the like buttons read this set)',
          response: { 200: likedSongIds },
        },
      },
      async (request) => likes.ids(requirePrincipal(request).userId),
    );
  };
