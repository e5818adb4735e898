import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from './env.ts';
import type { Database } from './db/client.ts';
import { registerAccessPolicy } from './http/access-policy.ts';
import { registerErrorHandler } from './http/http-errors.ts';
import { createAuthModule, type AuthModule } from './auth/auth.module.ts';
import { createRolesRepository } from './db/repositories/roles.repository.ts';
import { createArtistRequestsRepository } from './db/repositories/artist-requests.repository.ts';
import { adminRoutes } from './routes/admin.routes.ts';
import { mfaRoutes } from './routes/mfa.routes.ts';
import { createArtistApprovalService } from './services/artist-approval.service.ts';
import type { Mailer } from './services/mailer.ts';
import { createMailer } from './services/mailer.ts';
import { createStorage } from './storage/create-storage.ts';
import type { Storage } from './storage/storage.ts';
import { mediaRoutes } from './routes/media.routes.ts';
import { songsRoutes } from './routes/songs.routes.ts';
import { createSongsRepository } from './db/repositories/songs.repository.ts';
import { createSongsService } from './services/songs/songs.service.ts';
import { createItunesProvider } from './services/catalogue/itunes.provider.ts';

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

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
  }
}

const secretHeaders = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export async function buildApp(deps: AppDeps): Promise<App> {
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: deps.logger ?? { level: deps.env.logLevel, redact: secretHeaders },
    // Only the socket address counts: a client-sent X-Forwarded-For must not dodge rate limits.
    trustProxy: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Canto API', version: '1.0.0', description: 'Music and podcast streaming.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'canto_access' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const mailer = deps.mailer ?? createMailer(deps.env.smtpUrl, app.log);
  const roles = createRolesRepository(deps.database.db);
  const auth = await createAuthModule({
    env: deps.env,
    database: deps.database,
    clock,
    mailer,
    roles,
    log: app.log,
  });
  registerAccessPolicy(app, { resolvePrincipal: auth.resolvePrincipal, rolesOf: roles.rolesOf });
  // Start-up (ADMIN_EMAIL, demo content) creates accounts through the auth module, not around it.
  app.decorate('accounts', auth.accounts);

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  await app.register(auth.routes, { prefix: '/api/auth' });
  await app.register(mfaRoutes({ env: deps.env, database: deps.database, clock, auth }), {
    prefix: '/api/auth',
  });
  await app.register(auth.wellKnownRoutes);
  const approvals = createArtistApprovalService({
    requests: createArtistRequestsRepository(deps.database.db),
  });
  await app.register(adminRoutes({ approvals }), { prefix: '/api/admin' });
  const storage = deps.storage ?? createStorage(deps.env);
  await app.register(mediaRoutes({ storage }));
  const catalogue = createItunesProvider({ baseUrl: deps.env.catalogueUrl, log: app.log });
  const songs = createSongsService({
    songs: createSongsRepository(deps.database.db),
    storage,
    catalogue,
    tempDir: path.join(deps.env.dataDir, 'tmp'),
    log: app.log,
  });
  await app.register(songsRoutes({ songs, clock }), { prefix: '/api' });

  registerWebApp(app, deps.webDir ?? path.resolve('dist/web'));
  return app;
}

/** Serves the built SPA; unknown /api paths stay JSON 404s, other paths get index.html. */
function registerWebApp(app: FastifyInstance, webDir: string) {
  const hasBuild = fs.existsSync(path.join(webDir, 'index.html'));
  if (hasBuild) {
    app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text file (vite.config.ts): sent as is, no CPU.
      preCompressed: true,
      maxAge: '1h',
      setHeaders(reply, filePath) {
        // Hashed assets never change; index.html must always be revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (/index\.html(\.br|\.gz)?$/.test(filePath)) {
          reply.header('cache-control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith('/api') || url.startsWith('/media') || request.method !== 'GET') {
      return reply
        .status(404)
        .send({
          error: {
            code: 'not_found',
            message: `No route for ${request.method} ${url.split('?')[0]}`,
          },
        });
    }
    if (!hasBuild) {
      return reply
        .type('text/plain')
        .status(503)
        .send('The web app is not built. Run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
