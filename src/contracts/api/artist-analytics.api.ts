import { artistAnalytics } from '../artist-analytics.contract.ts';
import { defineRoute } from './define-route.ts';

export const artistAnalyticsApi = {
  analytics: defineRoute({
    method: 'GET',
    path: '/api/artist/analytics',
    response: artistAnalytics,
  }),
};
