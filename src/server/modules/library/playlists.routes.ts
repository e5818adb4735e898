import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addTrackBody,
  createPlaylistBody,
  moveTrackBody,
  myPlaylists,
  playlistDetail,
  playlistIdParams,
  playlistOrder,
  playlistSummary,
  playlistTrackParams,
  trackAdded,
  updatePlaylistBody,
} from '../../../contracts/playlists.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { PlaylistsService } from './playlists.service.ts';

// 'owner' routes are signed-in at the edge; the service loads the playlist and answers 404
// (private, or missing) or 403 (public, someone else's) before anything is written.
export const playlistsRoutes =
  ({ playlists }: { playlists: PlaylistsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/me/playlists',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          summary: "The caller's playlists, newest first, with track counts and covers",
          response: { 200: myPlaylists },
        },
      },
      async (request) => playlists.listOwn(requirePrincipal(request).userId),
    );

    app.post(
      '/playlists',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          summary: 'Create a playlist (public unless told otherwise); the caller owns it',
          body: createPlaylistBody,
          response: { 201: playlistSummary },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await playlists.create(requirePrincipal(request).userId, request.body)),
    );

    app.get(
      '/playlists/:id',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['library'],
          summary:
            "A playlist and its tracks by position (the owner's, or anyone's when public; else 404)",
          params: playlistIdParams,
          response: { 200: playlistDetail },
        },
      },
      async (request) => playlists.get(requirePrincipal(request).userId, request.params.id),
    );

    app.patch(
      '/playlists/:id',
      {
        config: { access: 'owner' },
        schema: {
          tags: ['library'],
          summary: "Rename a playlist, change its description or whether it's public (owner)",
          params: playlistIdParams,
          body: updatePlaylistBody,
          response: { 200: playlistSummary },
        },
      },
      async (request) =>
        playlists.update(requirePrincipal(request).userId, request.params.id, request.body),
    );

    app.delete(
      '/playlists/:id',
      {
        config: { access: 'owner' },
        schema: {
          tags: ['library'],
          summary: 'Delete a playlist and its tracks (owner)',
          params: playlistIdParams,
        },
      },
      async (request, reply) => {
        await playlists.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );

    app.post(
      '/playlists/:id/tracks',
      {
        config: { access: 'owner' },
        schema: {
          tags: ['library'],
          summary:
            'Add a song after the last track (owner; 409 when already there or the playlist is full)',
          params: playlistIdParams,
          body: addTrackBody,
          response: { 201: trackAdded },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await playlists.addTrack(
              requirePrincipal(request).userId,
              request.params.id,
              request.body.song_id,
            ),
          ),
    );

    app.patch(
      '/playlists/:id/tracks/:songId',
      {
        config: { access: 'owner' },
        schema: {
          tags: ['library'],
          summary: 'Move a track to an index of the current order (owner); answers the new order',
          params: playlistTrackParams,
          body: moveTrackBody,
          response: { 200: playlistOrder },
        },
      },
      async (request) =>
        playlists.moveTrack(
          requirePrincipal(request).userId,
          request.params.id,
          request.params.songId,
          request.body.index,
        ),
    );

    app.delete(
      '/playlists/:id/tracks/:songId',
      {
        config: { access: 'owner' },
        schema: {
          tags: ['library'],
          summary: 'Remove a track from a playlist (owner; idempotent)',
          params: playlistTrackParams,
        },
      },
      async (request, reply) => {
        await playlists.removeTrack(
          requirePrincipal(request).userId,
          request.params.id,
          request.params.songId,
        );
        return reply.status(204).send();
      },
    );
  };
