import {
  offlinePlayBody,
  offlinePlayRecorded,
  playIdParams,
  playProgress,
  playProgressBody,
  playStartBody,
  playStarted,
  recentlyPlayed,
  userStats,
} from '../listening.contract.ts';
import { defineRoute } from './define-route.ts';

export const listeningApi = {
  startPlay: defineRoute({
    method: 'POST',
    path: '/api/plays',
    body: playStartBody,
    status: 201,
    response: playStarted,
  }),
  playProgress: defineRoute({
    method: 'PATCH',
    path: '/api/plays/:id',
    params: playIdParams,
    body: playProgressBody,
    response: playProgress,
  }),
  offlinePlay: defineRoute({
    method: 'PUT',
    path: '/api/offline-plays/:id',
    params: playIdParams,
    body: offlinePlayBody,
    response: offlinePlayRecorded,
  }),
  recentlyPlayed: defineRoute({
    method: 'GET',
    path: '/api/me/recently-played',
    response: recentlyPlayed,
  }),
  stats: defineRoute({ method: 'GET', path: '/api/me/stats', response: userStats }),
};
