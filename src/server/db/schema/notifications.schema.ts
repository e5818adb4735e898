import { sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { createdAt, lengthBetween } from './columns.ts';

// Who creates each type: notification.rules.ts; 'system' is for operator announcements.
export const notificationTypeEnum = pgEnum('notification_type', [
  'new_follower',
  'new_release',
  'artist_approved',
  'artist_rejected',
  'withdrawal_completed',
  'withdrawal_rejected',
  'system',
]);

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: notificationTypeEnum('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /** In-app path the item opens, e.g. `/profile/{followerId}`; null = nothing to open. */
    link: text('link'),
    read: boolean('read').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    lengthBetween('notifications_title_len', t.title, 1, 200),
    lengthBetween('notifications_message_len', t.message, 0, 2000),
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    // Unread count and the Unread tab read only this small slice.
    index('notifications_user_unread_idx')
      .on(t.userId, t.createdAt.desc().nullsFirst())
      .where(sql`not ${t.read}`),
  ],
);
