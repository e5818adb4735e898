import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchApi } from '../../../contracts/api/search.api.ts';
import type { Clock } from '../../../core/clock.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { SearchService } from './search.service.ts';

export const searchRoutes =
  ({ search, clock }: { search: SearchService; clock: Clock }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, searchApi.search, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['songs'],
        summary: 'Search songs (title, genre or artist; typos forgiven) or podcasts; limit 20',
      },
      handler: async (request) => search.search(request.query, clock.now()),
    });
  };
