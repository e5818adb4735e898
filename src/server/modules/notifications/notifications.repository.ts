import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { NotificationType } from '../../../core/validation/notification.rules.ts';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';
import { queryRows } from '../../db/sql-results.ts';

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
export type NotificationRow = typeof notifications.$inferSelect;

/** The channel new notifications are announced on (docs/decisions/0021). */
export const NOTIFICATIONS_CHANNEL = 'canto_notifications';

export type NewNotification = {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  link: string | null;
  at: Date;
};

// The largest `IN` list one read sends; a process with more sockets reads in slices.
const IDS_PER_READ = 5_000;

/** notifications rows: a user's list and its counts, and the writes that announce themselves. */
export function createNotificationsRepository(db: Db) {
  return {
    /**
     * Inserts one and announces `{id, user_id}` in the same statement: PostgreSQL delivers
     * the NOTIFY when the transaction commits, and never if it rolls back.
     */
    async insert(input: NewNotification, tx: Db = db): Promise<string> {
      const [row] = await queryRows<{ id: string }>(
        tx,
        sql`
        with inserted as (
          insert into notifications (user_id, type, title, message, link, created_at)
          values (${input.userId}, ${input.type}::notification_type, ${input.title},
                  ${input.message}, ${input.link}, ${input.at.toISOString()}::timestamptz)
          returning id, user_id
        )
        select id, pg_notify(${NOTIFICATIONS_CHANNEL},
                             json_build_object('id', id, 'user_id', user_id)::text)
        from inserted`,
      );
      return row!.id;
    },

    /**
     * `new_release` for every follower of `artistId` in ONE statement (INSERT … SELECT from
     * user_follows), however many there are, and one announcement for all of them: the
     * release's time, which every row carries, so each process reads only its own sockets'
     * rows (`releasedAt`). Answers how many were created.
     */
    async insertForFollowers(
      artistId: string,
      release: { title: string; message: string; link: string | null; at: Date },
      tx: Db = db,
    ): Promise<number> {
      const at = release.at.toISOString();
      const [row] = await queryRows<{ created: number }>(
        tx,
        sql`
        with inserted as (
          insert into notifications (user_id, type, title, message, link, created_at)
          select f.follower_id, 'new_release'::notification_type, ${release.title},
                 ${release.message}, ${release.link}, ${at}::timestamptz
          from user_follows f
          where f.following_id = ${artistId}
          returning 1
        ),
        created as (select count(*)::int as n from inserted)
        select n as created,
               case when n > 0 then pg_notify(${NOTIFICATIONS_CHANNEL},
                 json_build_object('release_at', ${at}::text, 'artist_id', ${artistId}::text)::text)
               end as announced
        from created`,
      );
      return row?.created ?? 0;
    },

    /** The newest `limit` (only unread ones when asked), newest first; ties by id. */
    list(userId: string, opts: { unreadOnly: boolean; limit: number }) {
      const mine = eq(notifications.userId, userId);
      return db
        .select()
        .from(notifications)
        .where(opts.unreadOnly ? and(mine, eq(notifications.read, false)) : mine)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(opts.limit);
    },

    async counts(userId: string): Promise<{ unread: number; total: number }> {
      const [row] = await db
        .select({
          total: count(),
          unread: sql<number>`count(*) filter (where not ${notifications.read})`.mapWith(Number),
        })
        .from(notifications)
        .where(eq(notifications.userId, userId));
      return { unread: row?.unread ?? 0, total: row?.total ?? 0 };
    },

    /** The row behind an announcement, if it is still there and still that user's. */
    async byId(id: string, userId: string): Promise<NotificationRow | null> {
      const [row] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      return row ?? null;
    },

    /** The rows of a release announced at `at` that belong to `userIds`. */
    async releasedAt(userIds: string[], at: Date): Promise<NotificationRow[]> {
      const found: NotificationRow[] = [];
      for (let i = 0; i < userIds.length; i += IDS_PER_READ) {
        found.push(
          ...(await db
            .select()
            .from(notifications)
            .where(
              and(
                inArray(notifications.userId, userIds.slice(i, i + IDS_PER_READ)),
                eq(notifications.createdAt, at),
                eq(notifications.type, 'new_release'),
              ),
            )),
        );
      }
      return found;
    },

    /** False when no such notification is the user's (another user's counts as none). */
    async markRead(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(notifications)
        .set({ read: true })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning({ id: notifications.id });
      return rows.length > 0;
    },

    /** Marks every unread one read; how many were. */
    async markAllRead(userId: string): Promise<number> {
      const rows = await db
        .update(notifications)
        .set({ read: true })
        .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
        .returning({ id: notifications.id });
      return rows.length;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning({ id: notifications.id });
      return rows.length > 0;
    },
  };
}
