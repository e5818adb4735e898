import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from '../core/clock.ts';
import type { Database } from './db/client.ts';
import { createDatabaseHealth, pingDatabase } from './db/database-outage.ts';
import type { Env } from './env.ts';
import { registerAccessPolicy } from './http/access-policy.ts';
import { answerClientError, answerFrameworkError } from './http/http-errors.ts';
import { registerPlatformPlugins } from './http/platform-plugins.ts';
import { putLaneInFront } from './http/request-lane.ts';
import { registerWebApp } from './http/web-app.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createFfmpeg } from './media/ffmpeg.ts';
import type { FeatureModule, ModuleContext } from './module-context.ts';
import { createAdsModule } from './modules/ads/ads.module.ts';
import { createArtistAnalyticsModule } from './modules/artist-analytics/artist-analytics.module.ts';
import { createArtistApprovalModule } from './modules/artist-approval/artist-approval.module.ts';
import { createWithdrawalsModule } from './modules/withdrawals/withdrawals.module.ts';
import { createPayoutsModule } from './modules/payouts/payouts.module.ts';
import { createAuthModule, type AuthModule } from './modules/auth/auth.module.ts';
import { createCompanionModule } from './modules/companion/companion.module.ts';
import {
  createMediaModule,
  mediaOrigins,
  uploadTempDir,
  type MediaModule,
  type MediaSettings,
} from './modules/media/media.module.ts';
import { createLibraryModule } from './modules/library/library.module.ts';
import { createRecommendationsModule } from './modules/recommendations/recommendations.module.ts';
import { createListeningModule } from './modules/listening/listening.module.ts';
import { createPodcastFeedModule } from './modules/podcast-feed/podcast-feed.module.ts';
import { createPodcastsModule } from './modules/podcasts/podcasts.module.ts';
import { createNotificationsModule } from './modules/notifications/notifications.module.ts';
import {
  createProfileRecords,
  createSocialModule,
  type ProfileRecords,
} from './modules/social/social.module.ts';
import { createMfaModule } from './modules/mfa/mfa.module.ts';
import { createPremiumModule } from './modules/premium/premium.module.ts';
import { createRolesModule, type RolesModule } from './modules/roles/roles.module.ts';
import { createScrobblingModule } from './modules/scrobbling/scrobbling.module.ts';
import { createSearchModule } from './modules/search/search.module.ts';
import { createSharingModule } from './modules/sharing/sharing.module.ts';
import { createSongsModule } from './modules/songs/songs.module.ts';
import { createSubsonicModule } from './modules/subsonic/subsonic.module.ts';
import { createSystemModule } from './modules/system/system.module.ts';
import { createTipsModule } from './modules/tips/tips.module.ts';
import { createAiModule } from './modules/ai/ai.module.ts';
import { createRateLimiter } from './security/rate-limit.ts';
import { createRateLimitsRepository } from './security/rate-limits.repository.ts';
import { resolveSecretKey } from './security/secrets.ts';
import type { CrashPoint } from './storage/crash-point.ts';
import { createRevenueModule, type BeforeCommit } from './modules/revenue/revenue.module.ts';
import { createStorage } from './storage/create-storage.ts';
import packageJson from '../../package.json' with { type: 'json' };
import type { Storage } from './storage/storage.ts';

export type AppDeps = {
  env: Env;
  database: Database;
  clock?: Clock;
  mailer?: Mailer;
  /** Media storage; defaults to the one STORAGE selects. */
  storage?: Storage;
  /** Fastify logger options; tests pass false. */
  logger?: FastifyServerOptions['logger'];
  /** Directory of the built web app; defaults to dist/web. */
  webDir?: string;
  /**
   * Fault injection for the crash tests (tests/helpers/server-entry.ts): called between an
   * upload's, a local put's and a media job's steps. The server never sets it.
   */
  crash?: CrashPoint;
  /** Fault injection for the revenue crash test: inside a run, before its commit. */
  revenueBeforeCommit?: BeforeCommit;
  /** For tests: called each time the media lane answers a request instead of Fastify. */
  mediaLaneAnswered?: () => void;
};

export type App = FastifyInstance;

/**
 * The app and what its host drives besides serving requests: the job queue and the media
 * reconciler it starts (closing the app stops both), and the account, role, profile and
 * storage APIs start-up work (ADMIN_EMAIL, demo content) goes through, the app's own.
 */
export type BuiltApp = {
  app: App;
  jobs: JobQueue;
  reconciler: MediaModule['reconciler'];
  accounts: AuthModule['accounts'];
  roles: RolesModule;
  profiles: ProfileRecords;
  storage: Storage;
};

const secretHeaders = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** The whole app as one Fastify instance: platform plugins, then the feature modules. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { env } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: env.logLevel, redact: secretHeaders },
    // request.ip is the socket address, or the hop that a TRUST_PROXY proxy adds to
    // X-Forwarded-For; anyone else's header is ignored, so it cannot dodge rate limits.
    trustProxy: env.trustProxy.length > 0 ? env.trustProxy : false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // Malformed or over-long URLs are refused before routing: answer them in the API's shape.
    frameworkErrors: answerFrameworkError,
    // Requests Node's own parser refuses, answered in the same shape.
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  const media: MediaSettings = {
    offload: env.mediaOffload,
    cdnUrl: env.cdnUrl,
    tempDir: uploadTempDir(env.dataDir),
    mediaWorkers: env.mediaWorkers,
    sweep: env.mediaSweep,
  };
  const databaseHealth = createDatabaseHealth({
    ping: pingDatabase(deps.database.db),
    log: app.log,
    // The queue is made below; an outage ends long after.
    onRecovered: () => jobs.resume(),
  });
  app.addHook('onClose', async () => databaseHealth.stop());
  await registerPlatformPlugins(app, {
    mediaOrigins: mediaOrigins({ ...media, storeEndpoint: env.s3.endpoint }),
    hsts: env.publicUrl.startsWith('https:'),
    onDatabaseUnavailable: (error) => databaseHealth.failed(error),
  });

  const clock = deps.clock ?? systemClock;
  const storage = deps.storage ?? (await createStorage(env, { crash: deps.crash }));
  // A store the app made is the app's to release (S3's sockets), after everything that uses
  // it has stopped: onClose hooks run last-added first. A given store is the caller's.
  if (!deps.storage) app.addHook('onClose', () => storage.close());
  const jobs = createJobQueue({
    database: deps.database,
    clock,
    log: app.log,
    ...env.jobs,
    databaseUnavailable: (error) => databaseHealth.failed(error),
  });
  // Before the database closes: running jobs finish or go back to the queue.
  app.addHook('onClose', () => jobs.stop());
  const ctx: ModuleContext = {
    secretKey: resolveSecretKey(env.secretKey, env.dataDir),
    database: deps.database,
    clock,
    log: app.log,
    storage,
    mailer: deps.mailer ?? createMailer(env.smtpUrl, app.log, env.mailFrom),
    jobs,
    ffmpeg: createFfmpeg({ binary: env.ffmpegPath, concurrency: env.mediaWorkers }),
    rateLimiter: createRateLimiter({
      repo: createRateLimitsRepository(deps.database.db),
      now: () => clock.now(),
    }),
  };
  // Settings each module reads, from env.ts: a module never sees the rest.
  const { publicUrl } = env;

  const roles = createRolesModule(ctx, {});
  // Made before the social module (which needs notifications, which need auth): sign-up
  // makes each account's profile through it.
  const profiles = createProfileRecords(ctx);
  const auth = await createAuthModule(ctx, {
    roles,
    profiles,
    settings: { publicUrl, sessionMaxLifetimeDays: env.sessionMaxLifetimeDays },
  });
  registerAccessPolicy(app, { resolvePrincipal: auth.resolvePrincipal, rolesOf: roles.rolesOf });

  const mediaModule = createMediaModule(ctx, { settings: media });
  // Before the database closes (the host closes it after the app): a pass must not outlive it.
  app.addHook('onClose', () => mediaModule.reconciler.stop());
  const notifications = createNotificationsModule(ctx, {
    auth,
    settings: { publicUrl, dev: env.dev, messageBudget: env.liveMessageBudget },
  });
  const premium = createPremiumModule(ctx, {
    settings: { provider: env.payments, stripe: env.stripe, publicUrl },
  });
  const songs = createSongsModule(ctx, {
    media: mediaModule,
    notifications,
    settings: {
      catalogue: {
        url: env.catalogueUrl,
        allowPrivate: env.catalogueAllowPrivate,
        timeoutMs: env.catalogueTimeoutMs,
      },
    },
    crash: deps.crash,
  });
  const podcasts = createPodcastsModule(ctx, {
    media: mediaModule,
    notifications,
    settings: { publicUrl, publicUrlSet: env.publicUrlSet },
  });
  const revenue = createRevenueModule(ctx, {
    settings: { monthEndJob: env.revenueMonthEndJob },
    beforeCommit: deps.revenueBeforeCommit,
  });
  const listening = createListeningModule(ctx, {
    songs,
    podcasts,
    settings: { foldSeconds: env.playCountFoldSeconds },
  });
  // Payouts settle withdrawals, and withdrawals hand approved requests to payouts: the getter
  // is first called by a request, long after both exist.
  const payouts = createPayoutsModule(ctx, { premium, withdrawals: () => withdrawals });
  const withdrawals = createWithdrawalsModule(ctx, {
    notifications,
    payouts: payouts.withdrawalPayouts,
  });
  const library = createLibraryModule(ctx, { songs });
  const social = createSocialModule(ctx, { notifications, songs });
  const webDir = deps.webDir ?? path.resolve('dist/web');
  const sharing = createSharingModule(ctx, {
    songs,
    library,
    media: mediaModule,
    social,
    podcasts,
    settings: { publicUrl, webDir },
  });
  const modules: FeatureModule[] = [
    createSystemModule(ctx, { readiness: { database: databaseHealth, jobs } }),
    auth,
    createMfaModule(ctx, { auth, settings: { publicUrl } }),
    createArtistApprovalModule(ctx, { roles, notifications }),
    withdrawals,
    payouts,
    mediaModule,
    songs,
    listening,
    createScrobblingModule(ctx, {
      listening,
      settings: { ...env.scrobbling, publicUrl, retrySeconds: env.jobs.retrySeconds },
    }),
    createArtistAnalyticsModule(ctx, { listening }),
    library,
    createRecommendationsModule(ctx, {
      songs,
      library,
      settings: { refreshMinutes: env.recommendationsRefreshMinutes },
    }),
    podcasts,
    createSearchModule(ctx, {
      songs,
      podcasts,
      settings: { cacheSeconds: env.searchCacheSeconds, concurrency: env.searchConcurrency },
    }),
    createPodcastFeedModule(ctx, {
      media: mediaModule,
      podcasts,
      settings: { publicUrl, offload: env.mediaOffload },
    }),
    notifications,
    social,
    premium,
    createAdsModule(ctx, {
      media: mediaModule,
      premium,
      settings: {
        showingIntervalSeconds: env.adShowingIntervalSeconds,
        showingAsksPerMinute: env.adShowingAsksPerMinute,
      },
    }),
    revenue,
    createTipsModule(ctx, { premium, roles, revenue }),
    createAiModule(ctx, {
      settings: {
        provider: env.ai.provider,
        openai: env.ai.openai,
        timeoutMs: env.ai.timeoutMs,
        generationsPerHour: env.ai.generationsPerHour,
      },
    }),
    createCompanionModule(ctx, {
      premium,
      songs,
      settings: {
        provider: env.ai.provider,
        openai: {
          baseUrl: env.ai.openai.baseUrl,
          apiKey: env.ai.openai.apiKey,
          realtimeModel: env.ai.openai.realtimeModel,
          timeoutMs: env.ai.timeoutMs,
        },
        publicUrl,
        dev: env.dev,
      },
    }),
    sharing,
    createSubsonicModule(ctx, {
      roles,
      songs,
      media: mediaModule,
      library,
      listening,
      podcasts,
      social,
      settings: { serverVersion: packageJson.version },
    }),
  ];
  for (const module of modules) await app.register(module.plugin);
  // Plain seeks under signed URLs are answered before Fastify's hooks and routing (ADR 0010).
  if (mediaModule.lane) {
    putLaneInFront(app, mediaModule.lane, { answered: deps.mediaLaneAnswered });
  }

  // The pages of shared items carry their link cards (the sharing module knows the items).
  registerWebApp(app, webDir, { pageHead: sharing.pageHead });
  return {
    app,
    jobs,
    reconciler: mediaModule.reconciler,
    accounts: auth.accounts,
    roles,
    profiles,
    storage,
  };
}
