import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { createdAt, lengthBetween } from './columns.ts';
import { streamAnalytics } from './listening.schema.ts';

// Scrobbling (docs/decisions/0038): a listener's ListenBrainz and Last.fm connections and
// the outbox of their plays to send, each play at most once per service.

/**
 * One row per listener and service. The ListenBrainz user token or the Last.fm session key is
 * sealed with the app's key (sent as is to the service, so it cannot be hashed); a Last.fm
 * sign-in in progress keeps its request token sealed until the listener has allowed access.
 */
export const scrobbleConnections = pgTable(
  'scrobble_connections',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text('service').notNull(),
    /** null until connected (a Last.fm sign-in waiting for the listener's approval). */
    sealedSecret: text('sealed_secret'),
    status: text('status').notNull().default('disconnected'),
    accountName: text('account_name'),
    lastError: text('last_error'),
    pendingToken: text('pending_token'),
    pendingAt: timestamp('pending_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.service] }),
    check('scrobble_connections_service', sql`${t.service} in ('listenbrainz', 'lastfm')`),
    check('scrobble_connections_status', sql`${t.status} in ('connected', 'disconnected')`),
    lengthBetween('scrobble_connections_account_name_len', t.accountName, 1, 200),
    lengthBetween('scrobble_connections_last_error_len', t.lastError, 0, 500),
  ],
);

/**
 * A finished play to send to one service: made once per (play, service) when the play crosses
 * the services' rule (half the track or 4 minutes), sent by one job. `held`: the connection
 * was revoked or removed before it went; it is sent when the listener connects again.
 */
export const scrobbleDeliveries = pgTable(
  'scrobble_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text('service').notNull(),
    playId: uuid('play_id')
      .notNull()
      .references(() => streamAnalytics.id, { onDelete: 'cascade' }),
    artist: text('artist').notNull(),
    track: text('track').notNull(),
    durationMs: integer('duration_ms'),
    listenedAt: timestamp('listened_at', { withTimezone: true }).notNull(),
    state: text('state').notNull().default('pending'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    check('scrobble_deliveries_service', sql`${t.service} in ('listenbrainz', 'lastfm')`),
    check('scrobble_deliveries_state', sql`${t.state} in ('pending', 'sent', 'held', 'failed')`),
    uniqueIndex('scrobble_deliveries_play_key').on(t.playId, t.service),
    // Held scrobbles of one connection are sent again when it reconnects.
    index('scrobble_deliveries_held_idx')
      .on(t.userId, t.service)
      .where(sql`${t.state} = 'held'`),
  ],
);
