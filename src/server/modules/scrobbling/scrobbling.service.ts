import type {
  LastfmStarted,
  ScrobbleConnection,
  ScrobblingSettings,
} from '../../../contracts/scrobbling.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  crossedScrobbleThreshold,
  scrobbleMessages,
  type ScrobbleService,
} from '../../../core/validation/scrobbling.rules.ts';
import type { Db } from '../../db/client.ts';
import type { Log } from '../../log.ts';
import type { LastfmProvider } from '../../providers/scrobbling/lastfm.provider.ts';
import { LastfmError } from '../../providers/scrobbling/lastfm.provider.ts';
import type { ListenBrainzProvider } from '../../providers/scrobbling/listenbrainz.provider.ts';
import {
  ScrobbleError,
  type ScrobbleSender,
} from '../../providers/scrobbling/scrobble-provider.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { SongPlay, SongPlayProgress } from '../listening/listening.module.ts';
import type { ConnectionRow, ScrobblingRepository } from './scrobbling.repository.ts';

/** What a delivery's job carries: the outbox row to send. */
export type DeliverPayload = { id: number };
/** What a now-playing job carries: everything to send (nothing is stored for it). */
export type NowPlayingPayload = {
  userId: string;
  service: ScrobbleService;
  artist: string;
  track: string;
  durationMs: number | null;
  /** When the play started (ISO): a now-playing older than NOW_PLAYING_STALE_MS is dropped. */
  at: string;
};

/** A now-playing that waited this long in the queue is not worth sending any more. */
const NOW_PLAYING_STALE_MS = 5 * 60_000;
/** A Last.fm request token lives 60 minutes (Last.fm's rule). */
const LASTFM_TOKEN_TTL_MS = 60 * 60_000;

export type ScrobblingServiceDeps = {
  repository: ScrobblingRepository;
  listenBrainz: ListenBrainzProvider;
  /** Null when LASTFM_API_KEY and LASTFM_API_SECRET are not both set. */
  lastfm: LastfmProvider | null;
  box: SecretBox;
  clock: Clock;
  log: Log;
  /** Enqueues delivery jobs in `tx` (the transaction that made or released the rows). */
  enqueueDeliveries: (tx: Db, ids: number[]) => Promise<void>;
  enqueueNowPlaying: (payload: NowPlayingPayload) => Promise<void>;
};

export type ScrobblingService = ReturnType<typeof createScrobblingService>;

function toDto(row: ConnectionRow): ScrobbleConnection {
  return {
    service: row.service,
    status: row.status,
    account_name: row.accountName,
    last_error: row.lastError,
    connected_at: row.connectedAt?.toISOString() ?? null,
    held: row.held,
  };
}

const unavailable = () =>
  new AppError(ErrorCode.serviceUnavailable, scrobbleMessages.serviceUnavailable);

/**
 * Scrobbling's rules (docs/decisions/0038): connecting and disconnecting, now playing at a
 * song play's start, one delivery per connected service when it crosses the services' rule,
 * and the jobs that send them.
 */
export function createScrobblingService(deps: ScrobblingServiceDeps) {
  const { repository, box, clock, log } = deps;

  const sender = (service: ScrobbleService): ScrobbleSender | null =>
    service === 'listenbrainz' ? deps.listenBrainz : deps.lastfm;

  async function connection(userId: string, service: ScrobbleService) {
    const row = (await repository.connectionsOf(userId)).find((c) => c.service === service);
    if (!row) throw new Error('the connection just written is missing');
    return toDto(row);
  }

  const connect = (userId: string, service: ScrobbleService, secret: string, name: string) =>
    repository.connect(
      { userId, service, sealedSecret: box.seal(secret), accountName: name },
      clock.now(),
      deps.enqueueDeliveries,
    );

  /** The service refused the listener's secret: disconnected, nothing retried. */
  async function refused(userId: string, service: ScrobbleService, error: ScrobbleError) {
    if (await repository.disconnect(userId, service, error.message, clock.now()))
      log.info({ userId, service, reason: error.message }, 'scrobbling: connection disconnected');
  }

  return {
    async settings(userId: string): Promise<ScrobblingSettings> {
      const rows = await repository.connectionsOf(userId);
      const shown = (service: ScrobbleService) => {
        const row = rows.find((r) => r.service === service && r.connectedAt !== null);
        return row ? toDto(row) : null;
      };
      return {
        listenbrainz: shown('listenbrainz'),
        lastfm: shown('lastfm'),
        lastfm_available: deps.lastfm !== null,
        lastfm_pending: rows.some((r) => r.service === 'lastfm' && r.pending),
      };
    },

    /** Checks the token with ListenBrainz (validate-token), then keeps it sealed. */
    async connectListenBrainz(userId: string, token: string): Promise<ScrobbleConnection> {
      let name: string | null;
      try {
        name = await deps.listenBrainz.validateToken(token);
      } catch (error) {
        log.warn({ err: error }, 'scrobbling: ListenBrainz token check failed');
        throw unavailable();
      }
      if (!name)
        throw new AppError(ErrorCode.validation, scrobbleMessages.invalidListenBrainzToken);
      await connect(userId, 'listenbrainz', token, name);
      return connection(userId, 'listenbrainz');
    },

    /** Last.fm's desktop flow, step 1: a request token and the page to allow access on. */
    async startLastfm(userId: string): Promise<LastfmStarted> {
      if (!deps.lastfm) throw new AppError(ErrorCode.notFound, scrobbleMessages.lastfmUnavailable);
      let started;
      try {
        started = await deps.lastfm.start();
      } catch (error) {
        log.warn({ err: error }, 'scrobbling: Last.fm auth.getToken failed');
        throw unavailable();
      }
      await repository.setPending(userId, 'lastfm', box.seal(started.token), clock.now());
      return { auth_url: started.authUrl };
    },

    /** Step 2, after the listener allowed access: the session key (auth.getSession). */
    async finishLastfm(userId: string): Promise<ScrobbleConnection> {
      if (!deps.lastfm) throw new AppError(ErrorCode.notFound, scrobbleMessages.lastfmUnavailable);
      const pending = await repository.pendingOf(userId, 'lastfm');
      if (!pending) throw new AppError(ErrorCode.validation, scrobbleMessages.lastfmNotStarted);
      if (clock.now().getTime() - pending.at.getTime() > LASTFM_TOKEN_TTL_MS) {
        await repository.clearPending(userId, 'lastfm');
        throw new AppError(ErrorCode.validation, scrobbleMessages.lastfmNotStarted);
      }
      let session;
      try {
        session = await deps.lastfm.session(box.open(pending.sealedToken));
      } catch (error) {
        // 14: not allowed yet (the listener may still do it); 4, 15: the token is spent.
        if (error instanceof LastfmError && error.code === 14)
          throw new AppError(ErrorCode.validation, scrobbleMessages.lastfmNotAllowed);
        if (error instanceof ScrobbleError && error.failure !== 'retry') {
          await repository.clearPending(userId, 'lastfm');
          throw new AppError(ErrorCode.validation, scrobbleMessages.lastfmNotStarted);
        }
        log.warn({ err: error }, 'scrobbling: Last.fm auth.getSession failed');
        throw unavailable();
      }
      await connect(userId, 'lastfm', session.key, session.name);
      return connection(userId, 'lastfm');
    },

    /** Forgets the connection and what it has not sent. */
    async disconnect(userId: string, service: ScrobbleService): Promise<void> {
      await repository.remove(userId, service);
    },

    /** A song play started: now playing on each connected service, through the queue. */
    async playStarted(play: SongPlay): Promise<void> {
      const targets = await repository.nowPlayingTargets(play.userId, play.songId);
      for (const t of targets)
        await deps.enqueueNowPlaying({
          userId: play.userId,
          service: t.service,
          artist: t.artist,
          track: t.track,
          durationMs: t.durationMs,
          at: play.playedAt.toISOString(),
        });
    },

    /**
     * A song play's heard total rose: the one report that crosses the rule makes the play's
     * deliveries (once per service, by their unique key, whatever else happens).
     */
    async playProgressed(play: SongPlayProgress): Promise<void> {
      if (!crossedScrobbleThreshold(play.durationMs, play.previousMs, play.listenedMs)) return;
      await repository.createDeliveries(play.playId, deps.enqueueDeliveries);
    },

    /**
     * A delivery's job: sends the scrobble. A refused secret disconnects the connection and
     * holds the scrobble for a reconnect (the job ends); an outage throws, so the queue tries
     * again later with backoff; a scrobble the service refuses for good is marked failed.
     */
    async deliver({ id }: DeliverPayload): Promise<void> {
      const row = await repository.deliveryToSend(id);
      if (!row) return;
      const via = sender(row.service);
      if (row.status !== 'connected' || !row.sealedSecret || !via) {
        await repository.settle(id, 'held', clock.now(), 'not connected');
        return;
      }
      try {
        await via.scrobble(box.open(row.sealedSecret), row);
      } catch (error) {
        if (!(error instanceof ScrobbleError) || error.failure === 'retry') throw error;
        if (error.failure === 'auth') {
          await refused(row.userId, row.service, error);
          await repository.settle(id, 'held', clock.now(), error.message);
        } else {
          log.warn({ err: error, deliveryId: id }, 'scrobbling: a scrobble was refused');
          await repository.settle(id, 'failed', clock.now(), error.message);
        }
        return;
      }
      await repository.settle(id, 'sent', clock.now());
    },

    /** A delivery's retries are spent (a very long outage): marked failed, kept for a look. */
    async gaveUp({ id }: DeliverPayload, lastError: string | null): Promise<void> {
      await repository.settle(id, 'failed', clock.now(), lastError ?? 'retries spent');
    },

    /** A now-playing job: sent once, dropped when stale or when the service fails. */
    async nowPlaying(payload: NowPlayingPayload): Promise<void> {
      if (clock.now().getTime() - Date.parse(payload.at) > NOW_PLAYING_STALE_MS) return;
      const via = sender(payload.service);
      const sealed = await repository.secretOf(payload.userId, payload.service);
      if (!via || !sealed) return;
      try {
        await via.nowPlaying(box.open(sealed), payload);
      } catch (error) {
        if (error instanceof ScrobbleError && error.failure === 'auth')
          return refused(payload.userId, payload.service, error);
        // Now playing is a hint: a failure is not worth a retry.
        log.warn({ err: error, service: payload.service }, 'scrobbling: now playing not sent');
      }
    },
  };
}
