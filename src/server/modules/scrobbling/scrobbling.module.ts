import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { createLastfmProvider } from '../../providers/scrobbling/lastfm.provider.ts';
import { createListenBrainzProvider } from '../../providers/scrobbling/listenbrainz.provider.ts';
import { createSecretBox } from '../../security/secret-box.ts';
import type { ListeningModule } from '../listening/listening.module.ts';
import { createScrobblingRepository } from './scrobbling.repository.ts';
import { scrobblingRoutes } from './scrobbling.routes.ts';
import {
  createScrobblingService,
  type DeliverPayload,
  type NowPlayingPayload,
} from './scrobbling.service.ts';

export type ScrobblingModule = FeatureModule;

export type ScrobblingSettings = {
  /** LISTENBRAINZ_URL. */
  listenBrainzUrl: string;
  /** LASTFM_*: Last.fm is offered only with both the key and the secret. */
  lastfm: { apiUrl: string; authUrl: string; apiKey?: string; apiSecret?: string };
  /** SCROBBLE_ALLOW_PRIVATE: fakes on loopback (tests, development). */
  allowPrivate: boolean;
  /** The server's public URL (a listen's origin_url). */
  publicUrl: string;
  /** The first retry's wait after an outage (JOB_RETRY_SECONDS); it doubles, up to an hour. */
  retrySeconds: number;
};

export const DELIVER_JOB = 'scrobble.deliver';
export const NOW_PLAYING_JOB = 'scrobble.now-playing';
/** About a day of retries (an hour apart at the end) before a scrobble is given up. */
export const DELIVER_MAX_ATTEMPTS = 30;
/** Deliveries one worker sends at once: each mostly waits on the service. */
const DELIVER_CONCURRENCY = 8;
const TIMEOUT_MS = 10_000;

/**
 * Scrobbling (docs/decisions/0038) under /api/me/scrobbling: a listener connects ListenBrainz
 * (user token) and Last.fm (desktop auth flow); song plays heard from the listening module
 * are sent through the job queue: now playing at the start, one scrobble per connected
 * service once half the track or 4 minutes was heard.
 */
export function createScrobblingModule(
  ctx: Pick<ModuleContext, 'secretKey' | 'database' | 'clock' | 'log' | 'jobs'>,
  {
    listening,
    settings,
  }: { listening: Pick<ListeningModule, 'onSongPlays'>; settings: ScrobblingSettings },
): ScrobblingModule {
  const repository = createScrobblingRepository(ctx.database.db);
  const { apiKey, apiSecret } = settings.lastfm;
  const common = { allowPrivate: settings.allowPrivate, timeoutMs: TIMEOUT_MS };
  const scrobbling = createScrobblingService({
    repository,
    listenBrainz: createListenBrainzProvider({
      ...common,
      baseUrl: settings.listenBrainzUrl,
      originUrl: settings.publicUrl,
    }),
    lastfm:
      apiKey && apiSecret
        ? createLastfmProvider({
            ...common,
            apiUrl: settings.lastfm.apiUrl,
            authUrl: settings.lastfm.authUrl,
            apiKey,
            apiSecret,
          })
        : null,
    box: createSecretBox(ctx.secretKey, 'scrobbling'),
    clock: ctx.clock,
    log: ctx.log,
    enqueueDeliveries: async (tx, ids) => {
      for (const id of ids)
        await ctx.jobs.enqueue(DELIVER_JOB, { id } satisfies DeliverPayload, {
          tx,
          maxAttempts: DELIVER_MAX_ATTEMPTS,
        });
    },
    enqueueNowPlaying: async (payload) => {
      await ctx.jobs.enqueue(NOW_PLAYING_JOB, payload, { maxAttempts: 1 });
    },
  });

  ctx.jobs.register<DeliverPayload>(DELIVER_JOB, (job) => scrobbling.deliver(job.payload), {
    concurrency: DELIVER_CONCURRENCY,
    backoff: { baseMs: settings.retrySeconds * 1000, maxMs: 60 * 60_000 },
    onDead: (job) => scrobbling.gaveUp(job.payload as DeliverPayload, job.lastError),
  });
  ctx.jobs.register<NowPlayingPayload>(NOW_PLAYING_JOB, (job) =>
    scrobbling.nowPlaying(job.payload),
  );
  listening.onSongPlays({
    started: (play) => scrobbling.playStarted(play),
    progressed: (play) => scrobbling.playProgressed(play),
  });

  return {
    name: 'scrobbling',
    plugin: async (app) => {
      await app.register(scrobblingRoutes({ scrobbling }), { prefix: '/api' });
    },
  };
}
