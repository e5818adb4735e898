import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markAllReadResult,
  notificationIdParams,
  notificationList,
  notificationListQuery,
} from '../../../contracts/notifications.contract.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { NotificationsService } from './notifications.service.ts';

/** The notification menu's and screen's API (spec §7 notifications), under /api. */
export const notificationsRoutes =
  ({ notifications }: { notifications: NotificationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/me/notifications',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['notifications'],
          summary: "The caller's 10 newest notifications (or unread ones), with counts",
          querystring: notificationListQuery,
          response: { 200: notificationList },
        },
      },
      async (request) =>
        notifications.list(requirePrincipal(request).userId, request.query.unread === 'true'),
    );

    app.patch(
      '/me/notifications/:id/read',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['notifications'],
          summary: "Mark one read (another user's is 404, unchanged)",
          params: notificationIdParams,
        },
      },
      async (request, reply) => {
        await notifications.markRead(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );

    app.post(
      '/me/notifications/read-all',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['notifications'],
          summary: "Mark all the caller's unread notifications read",
          response: { 200: markAllReadResult },
        },
      },
      async (request) => notifications.markAllRead(requirePrincipal(request).userId),
    );

    app.delete(
      '/me/notifications/:id',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['notifications'],
          summary: "Delete one (another user's is 404, unchanged)",
          params: notificationIdParams,
        },
      },
      async (request, reply) => {
        await notifications.remove(requirePrincipal(request).userId, request.params.id);
        return reply.status(204).send();
      },
    );
  };
