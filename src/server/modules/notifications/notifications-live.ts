import { z } from 'zod';
import {
  liveClientMessage,
  type LiveServerMessage,
} from '../../../contracts/notifications.contract.ts';
import type { Database } from '../../db/client.ts';
import { openEventChannel, parseJson, type EventChannel } from '../../events/event-channel.ts';
import type { LiveConnections, LiveSocket } from '../../events/live-connections.ts';
import {
  NOTIFICATIONS_CHANNEL,
  type NotificationRow,
  type NotificationsRepository,
} from './notifications.repository.ts';
import { toNotificationDto } from './notifications.service.ts';
import type { Log } from '../../log.ts';

// What the repository announces (notifications.repository.ts): one notification, or a
// release's fan-out to many followers at one instant.
const announcement = z.union([
  z.object({ id: z.uuid(), user_id: z.uuid() }),
  z.object({ release_at: z.iso.datetime({ offset: true }), artist_id: z.uuid() }),
]);
type Announcement = z.infer<typeof announcement>;

const encode = (message: LiveServerMessage) => JSON.stringify(message);

/** Notifications this process remembers having pushed (oldest forgotten first). */
const PUSHED_REMEMBERED = 10_000;

export type LiveNotifications = {
  /** Serves one authenticated socket until it closes. */
  attach(socket: LiveSocket, user: { userId: string; sessionId: string; expiresAt: number }): void;
  close(): Promise<void>;
};

/**
 * Live delivery (docs/decisions/0021): every process listens on the notifications channel;
 * an announcement for a user with a socket here is read back from the table (payloads only
 * name rows) and pushed to that user's sockets. Users without a socket here cost nothing.
 */
export function createLiveNotifications(deps: {
  database: Pick<Database, 'listen'>;
  /** Where the database announces the id of each session that ends early (the auth module's). */
  sessionsRevokedChannel: string;
  /** Those of these sessions that have not ended (the auth module's), asked after a gap. */
  openSessionsAmong(sessionIds: string[]): Promise<string[]>;
  repository: Pick<NotificationsRepository, 'byId' | 'releasedAt'>;
  connections: LiveConnections;
  log: Log;
}): LiveNotifications {
  const { repository, connections } = deps;

  // Two releases at the same instant are two announcements, and each reads every release
  // notification of that instant (rows name no artist): each notification is pushed once.
  const pushed = new Set<string>();
  const push = (row: NotificationRow) => {
    if (pushed.has(row.id)) return;
    pushed.add(row.id);
    if (pushed.size > PUSHED_REMEMBERED) pushed.delete(pushed.values().next().value!);
    connections.sendTo(
      row.userId,
      encode({ type: 'notification', notification: toNotificationDto(row) }),
    );
  };

  async function deliver(event: Announcement) {
    if ('id' in event) {
      if (!connections.has(event.user_id)) return;
      const row = await repository.byId(event.id, event.user_id);
      if (row) push(row);
      return;
    }
    const here = connections.users();
    if (here.length === 0) return;
    for (const row of await repository.releasedAt(here, new Date(event.release_at))) push(row);
  }

  const channel: EventChannel = openEventChannel({
    database: deps.database,
    channel: NOTIFICATIONS_CHANNEL,
    parse: (payload) => {
      const parsed = announcement.safeParse(parseJson(payload));
      return parsed.success ? parsed.data : null;
    },
    onEvent: deliver,
    // Announcements made while this process was deaf are lost: every client refetches.
    onMissed: () => connections.broadcast(encode({ type: 'resync' })),
    log: deps.log,
  });

  // A signed-out or revoked session's sockets close at once, in every process. After a gap
  // in listening (its connection lost, or a first LISTEN retried), an announcement may have
  // been missed: the sessions of the sockets here are asked, and those that ended close.
  const closeEnded = async () => {
    const held = connections.sessions();
    if (held.length === 0) return;
    try {
      const open = new Set(await deps.openSessionsAmong(held));
      for (const sessionId of held) if (!open.has(sessionId)) connections.closeSession(sessionId);
    } catch (error) {
      // They still close when their access tokens expire.
      deps.log.warn({ err: error }, 'live sockets: could not check sessions after a gap');
    }
  };
  const revoked: EventChannel = openEventChannel({
    database: deps.database,
    channel: deps.sessionsRevokedChannel,
    parse: (payload) => (z.uuid().safeParse(payload).success ? payload : null),
    onEvent: async (sessionId) => void connections.closeSession(sessionId),
    onMissed: () => void closeEnded(),
    log: deps.log,
  });

  return {
    attach(socket, user) {
      connections.attach(socket, {
        userId: user.userId,
        sessionId: user.sessionId,
        expiresAt: user.expiresAt,
        onMessage: (message) => {
          // Anything else a client says is ignored.
          if (liveClientMessage.safeParse(message).success) socket.send(encode({ type: 'pong' }));
        },
      });
    },
    async close() {
      connections.stop();
      await Promise.all([channel.close(), revoked.close()]);
    },
  };
}
