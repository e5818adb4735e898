import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from '../core/clock.ts';
import type { Database } from './db/client.ts';
import type { Env } from './env.ts';
import { registerAccessPolicy } from './http/access-policy.ts';
import { answerClientError, answerFrameworkError } from './http/http-errors.ts';
import { registerPlatformPlugins } from './http/platform-plugins.ts';
import { registerWebApp } from './http/web-app.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createFfmpeg } from './media/ffmpeg.ts';
import type { FeatureModule, ModuleContext } from './module-context.ts';
import { createAdsModule } from './modules/ads/ads.module.ts';
import { createArtistApprovalModule } from './modules/artist-approval/artist-approval.module.ts';
import { createAuthModule, type AuthModule } from './modules/auth/auth.module.ts';
import { createMediaModule, mediaOrigins, type MediaModule } from './modules/media/media.module.ts';
import { createLibraryModule } from './modules/library/library.module.ts';
import { createListeningModule } from './modules/listening/listening.module.ts';
import { createPodcastFeedModule } from './modules/podcast-feed/podcast-feed.module.ts';
import { createPodcastsModule } from './modules/podcasts/podcasts.module.ts';
import { createNotificationsModule } from './modules/notifications/notifications.module.ts';
import { createSocialModule } from './modules/social/social.module.ts';
import { createMfaModule } from './modules/mfa/mfa.module.ts';
import { createPremiumModule } from './modules/premium/premium.module.ts';
import { createRolesModule } from './modules/roles/roles.module.ts';
import { createSearchModule } from './modules/search/search.module.ts';
import { createSongsModule } from './modules/songs/songs.module.ts';
import { createSystemModule } from './modules/system/system.module.ts';
import { resolveSecretKey } from './security/secrets.ts';
import { createStorage } from './storage/create-storage.ts';
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
};

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AuthModule['accounts'];
    /** Storage ↔ rows reconciliation after crashes; main.ts starts it, close stops it. */
    mediaReconciler: MediaModule['reconciler'];
    /** The job queue; main.ts starts its worker once handlers are registered, close stops it. */
    jobs: JobQueue;
  }
}

const secretHeaders = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** The whole app as one Fastify instance: platform plugins, then the feature modules. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.env.logLevel, redact: secretHeaders },
    // request.ip is the socket address, or the hop that a TRUST_PROXY proxy adds to
    // X-Forwarded-For; anyone else's header is ignored, so it cannot dodge rate limits.
    trustProxy: deps.env.trustProxy.length > 0 ? deps.env.trustProxy : false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // Malformed or over-long URLs are refused before routing: answer them in the API's shape.
    frameworkErrors: answerFrameworkError,
    // Requests Node's own parser refuses, answered in the same shape.
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  await registerPlatformPlugins(app, {
    mediaOrigins: mediaOrigins(deps.env),
    hsts: deps.env.publicUrl.startsWith('https:'),
  });

  const clock = deps.clock ?? systemClock;
  const jobs = createJobQueue({ database: deps.database, clock, log: app.log, ...deps.env.jobs });
  app.decorate('jobs', jobs);
  // Before the database closes: running jobs finish or go back to the queue.
  app.addHook('onClose', () => jobs.stop());
  const ctx: ModuleContext = {
    env: deps.env,
    secretKey: resolveSecretKey(deps.env.secretKey, deps.env.dataDir),
    database: deps.database,
    clock,
    log: app.log,
    storage: deps.storage ?? (await createStorage(deps.env)),
    mailer: deps.mailer ?? createMailer(deps.env.smtpUrl, app.log, deps.env.mailFrom),
    jobs,
    ffmpeg: createFfmpeg({ binary: deps.env.ffmpegPath, concurrency: deps.env.mediaWorkers }),
  };
  const roles = createRolesModule(deps.database.db);
  const auth = await createAuthModule(ctx, { roles });
  registerAccessPolicy(app, { resolvePrincipal: auth.resolvePrincipal, rolesOf: roles.rolesOf });
  // Start-up (ADMIN_EMAIL, demo content) creates accounts through the auth module, not around it.
  app.decorate('accounts', auth.accounts);

  const media = createMediaModule(ctx);
  app.decorate('mediaReconciler', media.reconciler);
  // Before the database closes (main.ts closes it after the app): a pass must not outlive it.
  app.addHook('onClose', () => media.reconciler.stop());
  const notifications = createNotificationsModule(ctx, { auth });
  const premium = createPremiumModule(ctx);
  const songs = createSongsModule(ctx, { media, notifications });
  const podcasts = createPodcastsModule(ctx, { media, notifications });
  const modules: FeatureModule[] = [
    createSystemModule(),
    auth,
    createMfaModule(ctx, { auth }),
    createArtistApprovalModule(ctx, { notifications }),
    media,
    songs,
    createListeningModule(ctx, { songs }),
    createLibraryModule(ctx, { songs }),
    podcasts,
    createSearchModule(ctx, { songs, podcasts }),
    createPodcastFeedModule(ctx, { media }),
    notifications,
    createSocialModule(ctx, { notifications, songs }),
    premium,
    createAdsModule(ctx, { media, premium }),
  ];
  for (const module of modules) await app.register(module.plugin);

  registerWebApp(app, deps.webDir ?? path.resolve('dist/web'));
  return app;
}
