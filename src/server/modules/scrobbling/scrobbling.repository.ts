import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows, queryRowsNamed } from '../../db/sql-results.ts';
import type { ScrobbleService } from '../../../core/validation/scrobbling.rules.ts';

export type ScrobblingRepository = ReturnType<typeof createScrobblingRepository>;

export type ConnectionRow = {
  service: ScrobbleService;
  status: 'connected' | 'disconnected';
  accountName: string | null;
  lastError: string | null;
  connectedAt: Date | null;
  /** Scrobbles kept while disconnected. */
  held: number;
  /** A Last.fm sign-in waits for the listener's approval. */
  pending: boolean;
};

/** A connected service's sealed secret and, for now playing, the song's names. */
export type NowPlayingTarget = {
  service: ScrobbleService;
  artist: string;
  track: string;
  durationMs: number | null;
};

/** A delivery to send, with its connection's state (null: the connection is gone). */
export type DeliveryToSend = {
  id: number;
  userId: string;
  service: ScrobbleService;
  artist: string;
  track: string;
  durationMs: number | null;
  listenedAt: Date;
  status: 'connected' | 'disconnected' | null;
  sealedSecret: string | null;
};

type Raw = Record<string, unknown>;
const date = (v: unknown) => (v == null ? null : new Date(v as string | Date));
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const clip = (text: string) => text.slice(0, 500);

/** scrobble_connections and scrobble_deliveries (docs/decisions/0038). */
export function createScrobblingRepository(db: Db) {
  return {
    /** The listener's connections, including ones only waiting for a Last.fm approval. */
    async connectionsOf(userId: string): Promise<ConnectionRow[]> {
      const found = await queryRows<Raw>(
        db,
        sql`select c.service, c.status, c.account_name, c.last_error, c.connected_at,
              c.pending_token is not null as pending,
              (select count(*) from scrobble_deliveries d
               where d.user_id = c.user_id and d.service = c.service and d.state = 'held')::int as held
            from scrobble_connections c where c.user_id = ${userId} order by c.service`,
      );
      return found.map((r) => ({
        service: r.service as ScrobbleService,
        status: r.status as ConnectionRow['status'],
        accountName: (r.account_name as string | null) ?? null,
        lastError: (r.last_error as string | null) ?? null,
        connectedAt: date(r.connected_at),
        held: Number(r.held),
        pending: Boolean(r.pending),
      }));
    },

    /**
     * Connects (or reconnects) a service with its sealed secret, and hands held scrobbles back
     * to the queue in the same transaction: `enqueue` is given their ids and the transaction.
     */
    async connect(
      row: { userId: string; service: ScrobbleService; sealedSecret: string; accountName: string },
      now: Date,
      enqueue: (tx: Db, deliveryIds: number[]) => Promise<void>,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`insert into scrobble_connections
                (user_id, service, sealed_secret, status, account_name, connected_at, updated_at)
              values (${row.userId}, ${row.service}, ${row.sealedSecret}, 'connected',
                      ${row.accountName}, ${ts(now)}, ${ts(now)})
              on conflict (user_id, service) do update set
                sealed_secret = excluded.sealed_secret, status = 'connected',
                account_name = excluded.account_name, last_error = null, pending_token = null,
                pending_at = null, connected_at = excluded.connected_at,
                updated_at = excluded.updated_at`,
        );
        const released = await queryRows<{ id: number | string }>(
          tx,
          sql`update scrobble_deliveries set state = 'pending', last_error = null
              where user_id = ${row.userId} and service = ${row.service} and state = 'held'
              returning id`,
        );
        if (released.length > 0)
          await enqueue(
            tx,
            released.map((r) => Number(r.id)),
          );
      });
    },

    /** Keeps a Last.fm request token (sealed) until the listener has allowed access. */
    async setPending(
      userId: string,
      service: ScrobbleService,
      sealedToken: string,
      now: Date,
    ): Promise<void> {
      await db.execute(
        sql`insert into scrobble_connections (user_id, service, pending_token, pending_at, updated_at)
            values (${userId}, ${service}, ${sealedToken}, ${ts(now)}, ${ts(now)})
            on conflict (user_id, service) do update set
              pending_token = excluded.pending_token, pending_at = excluded.pending_at,
              updated_at = excluded.updated_at`,
      );
    },

    async pendingOf(
      userId: string,
      service: ScrobbleService,
    ): Promise<{ sealedToken: string; at: Date } | null> {
      const [row] = await queryRows<Raw>(
        db,
        sql`select pending_token, pending_at from scrobble_connections
            where user_id = ${userId} and service = ${service} and pending_token is not null`,
      );
      return row ? { sealedToken: row.pending_token as string, at: date(row.pending_at)! } : null;
    },

    /** Forgets a pending sign-in; a row that was never connected goes with it. */
    async clearPending(userId: string, service: ScrobbleService): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`delete from scrobble_connections
              where user_id = ${userId} and service = ${service} and connected_at is null`,
        );
        await tx.execute(
          sql`update scrobble_connections set pending_token = null, pending_at = null
              where user_id = ${userId} and service = ${service}`,
        );
      });
    },

    /**
     * Removes a connection and the scrobbles it has not sent (the listener no longer wants
     * them there). True when there was one.
     */
    async remove(userId: string, service: ScrobbleService): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`delete from scrobble_deliveries
              where user_id = ${userId} and service = ${service} and state in ('pending', 'held')`,
        );
        const gone = await queryRows<Raw>(
          tx,
          sql`delete from scrobble_connections where user_id = ${userId} and service = ${service}
              returning 1`,
        );
        return gone.length > 0;
      });
    },

    /**
     * The service refused the listener's token or session: the connection is disconnected (its
     * secret forgotten, the reason kept) until they reconnect. False when it was not connected.
     */
    async disconnect(
      userId: string,
      service: ScrobbleService,
      reason: string,
      now: Date,
    ): Promise<boolean> {
      const found = await queryRows<Raw>(
        db,
        sql`update scrobble_connections set status = 'disconnected', sealed_secret = null,
              last_error = ${clip(reason)}, updated_at = ${ts(now)}
            where user_id = ${userId} and service = ${service} and status = 'connected'
            returning 1`,
      );
      return found.length > 0;
    },

    /** The listener's connected services with the song's names (none: nothing to announce). */
    async nowPlayingTargets(userId: string, songId: string): Promise<NowPlayingTarget[]> {
      const found = await queryRowsNamed<Raw>(
        db,
        sql`select c.service, s.artist, s.title, s.duration_ms
            from scrobble_connections c join songs s on s.id = ${songId}::uuid
            where c.user_id = ${userId}::uuid and c.status = 'connected' and s.artist is not null`,
      );
      return found.map((r) => ({
        service: r.service as ScrobbleService,
        artist: r.artist as string,
        track: r.title as string,
        durationMs: r.duration_ms == null ? null : Number(r.duration_ms),
      }));
    },

    /** The sealed secret of a connected service, or null. */
    async secretOf(userId: string, service: ScrobbleService): Promise<string | null> {
      const [row] = await queryRowsNamed<Raw>(
        db,
        sql`select sealed_secret from scrobble_connections
            where user_id = ${userId}::uuid and service = ${service} and status = 'connected'`,
      );
      return (row?.sealed_secret as string | undefined) ?? null;
    },

    /**
     * One delivery per connected service of the play's listener, made once: the unique
     * (play, service) key makes a second call a no-op. `enqueue` runs in the same transaction
     * with the new deliveries' ids, so no delivery exists without its job.
     */
    async createDeliveries(
      playId: string,
      enqueue: (tx: Db, deliveryIds: number[]) => Promise<void>,
    ): Promise<number[]> {
      return db.transaction(async (tx) => {
        const made = await queryRows<{ id: number | string }>(
          tx,
          sql`insert into scrobble_deliveries
                (user_id, service, play_id, artist, track, duration_ms, listened_at)
              select p.user_id, c.service, p.id, s.artist, s.title, s.duration_ms, p.played_at
              from stream_analytics p
              join songs s on s.id = p.song_id
              join scrobble_connections c on c.user_id = p.user_id and c.status = 'connected'
              where p.id = ${playId} and s.artist is not null
              on conflict (play_id, service) do nothing
              returning id`,
        );
        const ids = made.map((r) => Number(r.id));
        if (ids.length > 0) await enqueue(tx, ids);
        return ids;
      });
    },

    /** A pending delivery with its connection; null when it was sent or removed. */
    async deliveryToSend(id: number): Promise<DeliveryToSend | null> {
      const [r] = await queryRowsNamed<Raw>(
        db,
        sql`select d.id, d.user_id, d.service, d.artist, d.track, d.duration_ms, d.listened_at,
              c.status, c.sealed_secret
            from scrobble_deliveries d
            left join scrobble_connections c on c.user_id = d.user_id and c.service = d.service
            where d.id = ${id}::bigint and d.state = 'pending'`,
      );
      if (!r) return null;
      return {
        id: Number(r.id),
        userId: r.user_id as string,
        service: r.service as ScrobbleService,
        artist: r.artist as string,
        track: r.track as string,
        durationMs: r.duration_ms == null ? null : Number(r.duration_ms),
        listenedAt: date(r.listened_at)!,
        status: (r.status as DeliveryToSend['status']) ?? null,
        sealedSecret: (r.sealed_secret as string | null) ?? null,
      };
    },

    /** Records a delivery's outcome: sent, held (for a reconnect) or failed for good. */
    async settle(
      id: number,
      state: 'sent' | 'held' | 'failed',
      now: Date,
      error: string | null = null,
    ): Promise<void> {
      await queryRowsNamed(
        db,
        sql`update scrobble_deliveries
            set state = ${state}, sent_at = case when ${state} = 'sent' then ${ts(now)} end,
              last_error = ${error === null ? null : clip(error)}
            where id = ${id}::bigint and state = 'pending'`,
      );
    },
  };
}
