import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchQuery, searchResponse } from '../../../contracts/songs.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import type { SearchService } from './search.service.ts';

export const searchRoutes =
  ({ search, clock }: { search: SearchService; clock: Clock }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/search',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['songs'],
          summary: 'Search songs (title, genre or artist; typos forgiven) or podcasts; limit 20',
          querystring: searchQuery,
          response: { 200: searchResponse },
        },
      },
      async (request) => search.search(request.query, clock.now()),
    );
  };
