import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { artistAnalyticsApi } from '../../../contracts/api/artist-analytics.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { ArtistAnalyticsService } from './artist-analytics.service.ts';

export const artistAnalyticsRoutes =
  ({ analytics }: { analytics: ArtistAnalyticsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, artistAnalyticsApi.analytics, {
      config: { access: 'artist' },
      schema: {
        tags: ['artist'],
        summary:
          "The caller's dashboard: 30 days of streams and listeners, counts, estimate, tier, top items, new followers",
      },
      handler: async (request) => analytics.of(requirePrincipal(request).userId),
    });
  };
