import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recommendationsApi } from '../../../contracts/api/recommendations.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { RecommendationsService } from './recommendations.service.ts';

// Every answer is the signed-in caller's own: their history picks the songs and owns the mix.
export const recommendationsRoutes =
  ({ recommendations }: { recommendations: RecommendationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, recommendationsApi.list, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['recommendations'],
        summary:
          'Songs for the caller from their plays, likes and follows (the most played for a listener without history); optional genre filter',
      },
      handler: async (request) =>
        recommendations.recommend(requirePrincipal(request).userId, request.query),
    });

    contractRoute(app, recommendationsApi.generateMix, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['recommendations'],
        summary:
          "Generate AI Playlist: the caller's AI mix of 20 recommended songs, made, or given new tracks when it exists",
      },
      handler: async (request, reply) => {
        const mix = await recommendations.generateMix(requirePrincipal(request).userId);
        return reply.code(201).send(mix);
      },
    });

    contractRoute(app, recommendationsApi.currentMix, {
      config: { access: 'signed-in' },
      schema: { tags: ['recommendations'], summary: "The caller's AI mix playlist, if any" },
      handler: async (request) => recommendations.currentMix(requirePrincipal(request).userId),
    });
  };
