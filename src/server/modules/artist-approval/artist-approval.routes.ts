import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminApi } from '../../../contracts/api/admin.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { ArtistApprovalService } from './artist-approval.service.ts';

export const artistApprovalRoutes =
  ({ approvals }: { approvals: ArtistApprovalService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, adminApi.artistRequests, {
      config: { access: 'admin' },
      schema: { tags: ['admin'], summary: 'Pending artist requests' },
      handler: async () => approvals.pending(),
    });

    contractRoute(app, adminApi.approveArtist, {
      config: { access: 'admin' },
      schema: { tags: ['admin'], summary: 'approve_artist' },
      handler: async (request, reply) => {
        await approvals.approve(request.params.userId);
        return reply.status(204).send();
      },
    });

    contractRoute(app, adminApi.rejectArtist, {
      config: { access: 'admin' },
      schema: { tags: ['admin'], summary: 'Reject an artist request' },
      handler: async (request, reply) => {
        await approvals.reject(request.params.userId);
        return reply.status(204).send();
      },
    });
  };
