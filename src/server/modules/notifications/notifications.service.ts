import type {
  MarkAllReadResult,
  NotificationDto,
  NotificationList,
} from '../../../contracts/notifications.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  clip,
  inAppLink,
  notificationLimits,
  notificationMessages,
  type NotificationNotice,
  type NotificationType,
} from '../../../core/validation/notification.rules.ts';
import type { Db } from '../../db/client.ts';
import type { NotificationRow, NotificationsRepository } from './notifications.repository.ts';

export type NotificationsService = ReturnType<typeof createNotificationsService>;

export type NotifyInput = {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  link?: string | null;
};

const notFound = () => new AppError(ErrorCode.notFound, notificationMessages.notFound);

export function toNotificationDto(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    link: row.link,
    read: row.read,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * What is stored of a server-made text: cut to the column's length rather than failing the
 * caller's transaction (a follow, an approval) over a long song title; a title never empty;
 * a link only when it stays inside the app.
 */
function stored(notice: Omit<NotificationNotice, 'link'> & { link?: string | null }) {
  return {
    title: clip(notice.title.trim() || 'Notification', notificationLimits.titleMax),
    message: clip(notice.message, notificationLimits.messageMax),
    link: inAppLink(notice.link),
  };
}

/** Notifications (docs/decisions/0021; spec §4 Notification). */
export function createNotificationsService(deps: {
  notifications: NotificationsRepository;
  clock: Clock;
}) {
  const { notifications, clock } = deps;
  return {
    /** The 10 newest of the filter, with the unread count and total of all the user's. */
    async list(userId: string, unreadOnly: boolean): Promise<NotificationList> {
      const [rows, counts] = await Promise.all([
        notifications.list(userId, { unreadOnly, limit: notificationLimits.kept }),
        notifications.counts(userId),
      ]);
      return {
        items: rows.map(toNotificationDto),
        unread_count: counts.unread,
        total: counts.total,
      };
    },

    /** Another user's notification is not found (404) and stays as it was. */
    async markRead(userId: string, id: string): Promise<void> {
      if (!(await notifications.markRead(userId, id))) throw notFound();
    },

    async markAllRead(userId: string): Promise<MarkAllReadResult> {
      return { updated: await notifications.markAllRead(userId) };
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await notifications.remove(userId, id))) throw notFound();
    },

    /** Creates one (in `tx` when given); it is announced, and so pushed, once committed. */
    async notify(input: NotifyInput, tx?: Db): Promise<void> {
      await notifications.insert(
        { userId: input.userId, type: input.type, ...stored(input), at: clock.now() },
        tx,
      );
    },

    /** `new_release` to every follower of `artistId`: one statement; how many were made. */
    async notifyFollowers(
      artistId: string,
      release: Omit<NotifyInput, 'userId' | 'type'>,
      tx?: Db,
    ): Promise<number> {
      return notifications.insertForFollowers(
        artistId,
        { ...stored(release), at: clock.now() },
        tx,
      );
    },
  };
}
