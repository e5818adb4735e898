import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listeningApi } from '../../../contracts/api/listening.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { ListeningService } from './listening.service.ts';

export const listeningRoutes =
  ({ listening }: { listening: ListeningService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, listeningApi.startPlay, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['listening'],
        summary:
          "Record that the caller started a song (raises the song's play count) or a podcast episode",
      },
      handler: async (request, reply) => {
        const { userId } = requirePrincipal(request);
        const body = request.body;
        const started =
          'song_id' in body
            ? await listening.start(userId, body.song_id)
            : await listening.startEpisode(userId, body.episode_id);
        return reply.status(201).send(started);
      },
    });

    contractRoute(app, listeningApi.playProgress, {
      // Signed in at the edge; the play must be the caller's (checked in the same statement).
      config: { access: 'owner' },
      schema: {
        tags: ['listening'],
        summary:
          "Report the total heard in one of the caller's plays (kept at its highest, clamped to the length; completed at 90 %)",
      },
      handler: async (request) =>
        listening.progress(
          requirePrincipal(request).userId,
          request.params.id,
          request.body.listened_ms,
        ),
    });

    contractRoute(app, listeningApi.offlinePlay, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['listening'],
        summary:
          'Record a play heard offline under the id the device gave it (idempotent: sent again, it is counted once)',
      },
      handler: async (request) =>
        listening.recordOffline(requirePrincipal(request).userId, request.params.id, request.body),
    });

    contractRoute(app, listeningApi.recentlyPlayed, {
      config: { access: 'signed-in' },
      schema: { tags: ['listening'], summary: "The caller's last 20 plays, newest first" },
      handler: async (request) => listening.recentlyPlayed(requirePrincipal(request).userId),
    });

    contractRoute(app, listeningApi.stats, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['listening'],
        summary: "The caller's listening stats (totals, top artists, genres, songs, 7 days)",
      },
      handler: async (request) => listening.stats(requirePrincipal(request).userId),
    });
  };
