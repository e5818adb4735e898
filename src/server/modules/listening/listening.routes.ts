import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  playIdParams,
  playProgress,
  playProgressBody,
  playStartBody,
  playStarted,
  recentlyPlayed,
  userStats,
} from '../../../contracts/listening.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { ListeningService } from './listening.service.ts';

export const listeningRoutes =
  ({ listening }: { listening: ListeningService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/plays',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['listening'],
          summary: "Record that the caller started a song (raises the song's play count)",
          body: playStartBody,
          response: { 201: playStarted },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await listening.start(requirePrincipal(request).userId, request.body.song_id)),
    );

    app.patch(
      '/plays/:id',
      {
        // Signed in at the edge; the play must be the caller's (checked in the same statement).
        config: { access: 'owner' },
        schema: {
          tags: ['listening'],
          summary:
            "Report the total heard in one of the caller's plays (kept at its highest, clamped to the length; completed at 90 %)",
          params: playIdParams,
          body: playProgressBody,
          response: { 200: playProgress },
        },
      },
      async (request) =>
        listening.progress(
          requirePrincipal(request).userId,
          request.params.id,
          request.body.listened_ms,
        ),
    );

    app.get(
      '/me/recently-played',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['listening'],
          summary: "The caller's last 20 plays, newest first",
          response: { 200: recentlyPlayed },
        },
      },
      async (request) => listening.recentlyPlayed(requirePrincipal(request).userId),
    );

    app.get(
      '/me/stats',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['listening'],
          summary: "The caller's listening stats (totals, top artists, genres, songs, 7 days)",
          response: { 200: userStats },
        },
      },
      async (request) => listening.stats(requirePrincipal(request).userId),
    );
  };
