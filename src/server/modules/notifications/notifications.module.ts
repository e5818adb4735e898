import type { NotificationType as RuleNotificationType } from '../../../core/validation/notification.rules.ts';
import type { Db } from '../../db/client.ts';
import { createLiveConnections, type MessageBudget } from '../../events/live-connections.ts';
import { liveOrigins } from '../../events/live-origin.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { SESSIONS_REVOKED_CHANNEL, type AuthModule } from '../auth/auth.module.ts';
import { createLiveNotifications } from './notifications-live.ts';
import { notificationsLiveRoutes } from './notifications-live.routes.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { createNotificationsService } from './notifications.service.ts';

export type NotificationType = RuleNotificationType;

export type NotificationInput = {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  /** In-app path the item opens, e.g. `/profile/{followerId}`. */
  link?: string | null;
};

/** What other modules may ask of notifications. */
export type NotificationsModule = FeatureModule & {
  /** Creates one notification (inside `tx` when given); it is pushed live once committed. */
  notify(input: NotificationInput, tx?: Db): Promise<void>;
  /**
   * `new_release` to every follower of `artistId` in one set-based INSERT … SELECT; answers
   * how many were created.
   */
  notifyFollowers(
    artistId: string,
    release: Omit<NotificationInput, 'userId' | 'type'>,
    tx?: Db,
  ): Promise<number>;
};

// The Vite dev server (`npm run dev`), whose pages open the socket through its proxy.
const DEV_ORIGINS = ['http://localhost:5173'];

/**
 * Notifications, their live delivery and the notification screens' API (ADR 0021):
 * GET /me/notifications, PATCH /me/notifications/{id}/read, POST /me/notifications/read-all,
 * DELETE /me/notifications/{id}, and the live socket GET /me/notifications/live, under /api.
 * Texts are cut to the stored lengths and links kept in-app (notifications.service.ts).
 */
export type NotificationsSettings = {
  /** PUBLIC_URL: the origin whose pages may open the live socket. */
  publicUrl: string;
  /** CANTO_DEV: the Vite dev server's pages may open it too. */
  dev: boolean;
  /** What one socket may send before it is closed (null: no limit). */
  messageBudget: MessageBudget | null;
};

export function createNotificationsModule(
  ctx: ModuleContext,
  {
    auth,
    settings,
  }: { auth: Pick<AuthModule, 'openSessionsAmong'>; settings: NotificationsSettings },
): NotificationsModule {
  const repository = createNotificationsRepository(ctx.database.db);
  const notifications = createNotificationsService({ notifications: repository, clock: ctx.clock });
  const origins = liveOrigins(settings.publicUrl, settings.dev ? DEV_ORIGINS : []);
  return {
    name: 'notifications',
    plugin: async (app) => {
      // Listening starts with the routes, and stops before the database closes.
      const live = createLiveNotifications({
        database: ctx.database,
        sessionsRevokedChannel: SESSIONS_REVOKED_CHANNEL,
        openSessionsAmong: auth.openSessionsAmong,
        repository,
        connections: createLiveConnections({
          now: () => ctx.clock.now().getTime(),
          messageBudget: settings.messageBudget,
        }),
        log: ctx.log,
      });
      app.addHook('onClose', () => live.close());
      await app.register(notificationsRoutes({ notifications }), { prefix: '/api' });
      await app.register(notificationsLiveRoutes({ live, origins }), { prefix: '/api' });
    },
    notify: (input, tx) => notifications.notify(input, tx),
    notifyFollowers: (artistId, release, tx) =>
      notifications.notifyFollowers(artistId, release, tx),
  };
}
