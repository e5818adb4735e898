import {
  markAllReadResult,
  notificationIdParams,
  notificationList,
  notificationListQuery,
} from '../notifications.contract.ts';
import { defineRoute } from './define-route.ts';

// The live socket (NOTIFICATIONS_LIVE_PATH) is no request and answer: its messages are
// liveServerMessage and liveClientMessage, in the notifications contract.
export const notificationsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/me/notifications',
    query: notificationListQuery,
    response: notificationList,
  }),
  markRead: defineRoute({
    method: 'PATCH',
    path: '/api/me/notifications/:id/read',
    params: notificationIdParams,
  }),
  markAllRead: defineRoute({
    method: 'POST',
    path: '/api/me/notifications/read-all',
    response: markAllReadResult,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/me/notifications/:id',
    params: notificationIdParams,
  }),
};
