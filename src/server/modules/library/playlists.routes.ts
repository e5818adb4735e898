import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { playlistsApi } from '../../../contracts/api/playlists.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { PlaylistsService } from './playlists.service.ts';

// 'owner' routes are signed-in at the edge; the service loads the playlist and answers 404
// (private, or missing) or 403 (public, someone else's) before anything is written.
export const playlistsRoutes =
  ({ playlists }: { playlists: PlaylistsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, playlistsApi.mine, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['library'],
        summary: "The caller's playlists, newest first, with track counts and covers",
      },
      handler: async (request) => playlists.listOwn(requirePrincipal(request).userId),
    });

    contractRoute(app, playlistsApi.create, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['library'],
        summary: 'Create a playlist (public unless told otherwise); the caller owns it',
      },
      handler: async (request, reply) =>
        reply
          .status(201)
          .send(await playlists.create(requirePrincipal(request).userId, request.body)),
    });

    contractRoute(app, playlistsApi.get, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['library'],
        summary:
          "A playlist and its tracks by position (the owner's, or anyone's when public; else 404)",
      },
      handler: async (request) =>
        playlists.get(requirePrincipal(request).userId, request.params.id),
    });

    contractRoute(app, playlistsApi.update, {
      config: { access: 'owner' },
      schema: {
        tags: ['library'],
        summary: "Rename a playlist, change its description or whether it's public (owner)",
      },
      handler: async (request) =>
        playlists.update(requirePrincipal(request).userId, request.params.id, request.body),
    });

    contractRoute(app, playlistsApi.remove, {
      config: { access: 'owner' },
      schema: { tags: ['library'], summary: 'Delete a playlist and its tracks (owner)' },
      handler: async (request, reply) => {
        await playlists.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    });

    contractRoute(app, playlistsApi.addTrack, {
      config: { access: 'owner' },
      schema: {
        tags: ['library'],
        summary:
          'Add a song after the last track (owner; 409 when already there or the playlist is full)',
      },
      handler: async (request, reply) =>
        reply
          .status(201)
          .send(
            await playlists.addTrack(
              requirePrincipal(request).userId,
              request.params.id,
              request.body.song_id,
            ),
          ),
    });

    contractRoute(app, playlistsApi.moveTrack, {
      config: { access: 'owner' },
      schema: {
        tags: ['library'],
        summary: 'Move a track to an index of the current order (owner); answers the new order',
      },
      handler: async (request) =>
        playlists.moveTrack(
          requirePrincipal(request).userId,
          request.params.id,
          request.params.songId,
          request.body.index,
        ),
    });

    contractRoute(app, playlistsApi.removeTrack, {
      config: { access: 'owner' },
      schema: { tags: ['library'], summary: 'Remove a track from a playlist (owner; idempotent)' },
      handler: async (request, reply) => {
        await playlists.removeTrack(
          requirePrincipal(request).userId,
          request.params.id,
          request.params.songId,
        );
        return reply.status(204).send();
      },
    });
  };
