import { searchQuery, searchResponse } from '../songs.contract.ts';
import { defineRoute } from './define-route.ts';

export const searchApi = {
  search: defineRoute({
    method: 'GET',
    path: '/api/search',
    query: searchQuery,
    response: searchResponse,
  }),
};
