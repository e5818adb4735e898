import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationsApi } from '../../../contracts/api/notifications.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { NotificationsService } from './notifications.service.ts';

/** The notification menu's and screen's API (spec §7 notifications), under /api. */
export const notificationsRoutes =
  ({ notifications }: { notifications: NotificationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, notificationsApi.list, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: "The caller's 10 newest notifications (or unread ones), with counts",
      },
      handler: async (request) =>
        notifications.list(requirePrincipal(request).userId, request.query.unread === 'true'),
    });

    contractRoute(app, notificationsApi.markRead, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: "Mark one read (another user's is 404, unchanged)",
      },
      handler: async (request, reply) => {
        await notifications.markRead(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    });

    contractRoute(app, notificationsApi.markAllRead, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['notifications'],
        summary: "Mark all the caller's unread notifications read",
      },
      handler: async (request) => notifications.markAllRead(requirePrincipal(request).userId),
    });

    contractRoute(app, notificationsApi.remove, {
      config: { access: 'signed-in' },
      schema: { tags: ['notifications'], summary: "Delete one (another user's is 404, unchanged)" },
      handler: async (request, reply) => {
        await notifications.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    });
  };
