import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { artistRequestList, userIdParams } from '../../../contracts/admin.contract.ts';
import type { ArtistApprovalService } from './artist-approval.service.ts';

export const artistApprovalRoutes =
  ({ approvals }: { approvals: ArtistApprovalService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/artist-requests',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['admin'],
          summary: 'Pending artist requests',
          response: { 200: artistRequestList },
        },
      },
      async () => approvals.pending(),
    );

    app.post(
      '/artist-requests/:userId/approve',
      {
        config: { access: 'admin' },
        schema: { tags: ['admin'], summary: 'approve_artist', params: userIdParams },
      },
      async (request, reply) => {
        await approvals.approve(request.params.userId);
        return reply.status(204).send();
      },
    );

    app.post(
      '/artist-requests/:userId/reject',
      {
        config: { access: 'admin' },
        schema: { tags: ['admin'], summary: 'Reject an artist request', params: userIdParams },
      },
      async (request, reply) => {
        await approvals.reject(request.params.userId);
        return reply.status(204).send();
      },
    );
  };
