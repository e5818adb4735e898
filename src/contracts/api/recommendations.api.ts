import {
  aiMixDto,
  currentAiMixDto,
  recommendationsDto,
  recommendationsQuery,
} from '../recommendations.contract.ts';
import { defineRoute } from './define-route.ts';

export const recommendationsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/recommendations',
    query: recommendationsQuery,
    response: recommendationsDto,
  }),
  generateMix: defineRoute({
    method: 'POST',
    path: '/api/recommendations/playlist',
    status: 201,
    response: aiMixDto,
  }),
  currentMix: defineRoute({
    method: 'GET',
    path: '/api/recommendations/playlist',
    response: currentAiMixDto,
  }),
};
