import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../core/validation/notification.rules.ts';

/*
 * Notifications (docs/decisions/0021; spec §3 notifications, §7 notifications): the REST shapes
 * under /api/me/notifications and the messages of the live socket. Times are ISO strings.
 */

export const notificationType = z.enum(NOTIFICATION_TYPES);

export const notificationDto = z.object({
  id: z.uuid(),
  type: notificationType,
  title: z.string(),
  message: z.string(),
  link: z.string().nullable().describe('In-app path the item opens, e.g. /profile/{userId}'),
  read: z.boolean(),
  created_at: z.string().describe('ISO timestamp'),
});
export type NotificationDto = z.infer<typeof notificationDto>;

/** GET /api/me/notifications?unread=true|false */
export const notificationListQuery = z.object({
  unread: z
    .enum(['true', 'false'])
    .optional()
    .describe("'true': only unread ones (the Unread tab)"),
});

/** The 10 newest (of the filter), with the caller's unread count and total. */
export const notificationList = z.object({
  items: z.array(notificationDto),
  unread_count: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type NotificationList = z.infer<typeof notificationList>;

export const notificationIdParams = z.object({ id: z.uuid() });

/** POST /api/me/notifications/read-all: how many were unread. */
export const markAllReadResult = z.object({ updated: z.number().int().min(0) });
export type MarkAllReadResult = z.infer<typeof markAllReadResult>;

/*
 * The live socket: GET /api/me/notifications/live upgraded to a WebSocket, authenticated by
 * the session cookie (never a token in the URL), from PUBLIC_URL's origin. JSON text frames.
 */
export const NOTIFICATIONS_LIVE_PATH = '/api/me/notifications/live';

/** Server → client. */
export const liveServerMessage = z.discriminatedUnion('type', [
  /** A notification just created for this user. */
  z.object({ type: z.literal('notification'), notification: notificationDto }),
  /** The server may have missed events (its database listener reconnected): refetch. */
  z.object({ type: z.literal('resync') }),
  z.object({ type: z.literal('pong') }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessage>;

/**
 * Client → server: only `ping` (answered by `pong`, so a browser notices a dead connection,
 * which it cannot see from WebSocket pings). Unknown messages are ignored; a frame that is
 * not JSON closes the socket (1008), one over 64 KiB too (1009).
 */
export const liveClientMessage = z.object({ type: z.literal('ping') });
export type LiveClientMessage = z.infer<typeof liveClientMessage>;

/** Close codes the client acts on. */
export const liveCloseCodes = {
  /** The access token behind the socket expired: reconnect with the refreshed cookie. */
  sessionExpired: 4001,
  /** The user opened more sockets than allowed; the oldest is closed. */
  tooManyConnections: 4008,
} as const;
