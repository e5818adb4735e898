import { artistRequestList, userIdParams } from '../admin.contract.ts';
import { defineRoute } from './define-route.ts';

export const adminApi = {
  artistRequests: defineRoute({
    method: 'GET',
    path: '/api/admin/artist-requests',
    response: artistRequestList,
  }),
  approveArtist: defineRoute({
    method: 'POST',
    path: '/api/admin/artist-requests/:userId/approve',
    params: userIdParams,
  }),
  rejectArtist: defineRoute({
    method: 'POST',
    path: '/api/admin/artist-requests/:userId/reject',
    params: userIdParams,
  }),
};
