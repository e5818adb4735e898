import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { bodyEndedEarly, registerErrorHandler } from './http-errors.ts';
import { registerTextGuard } from './text-guard.ts';
import { registerSecurityHeaders } from './security-headers.ts';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The JSON Schema of a multipart/form-data body, for the OpenAPI document only: such
     * routes read their parts in the handler, so they have no `body` to validate. Made when
     * the document is (media/upload-form.ts).
     */
    multipartBody?: () => Record<string, unknown>;
  }
}

/** jsonSchemaTransform, plus the request body of multipart routes (`multipartBody`). */
const documentMultipartBodies: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const { multipartBody, ...schema } = out.schema as Record<string, unknown>;
  if (typeof multipartBody === 'function' && !schema.body) {
    schema.body = multipartBody();
    schema.consumes = ['multipart/form-data'];
  }
  return { ...out, schema };
};

/** The largest WebSocket frame (or message) a client may send. */
export const LIVE_MAX_FRAME_BYTES = 64 * 1024;

/**
 * What every route relies on before any feature is registered: zod validation and
 * serialization, the JSON error mapping, the text guard (NUL, lone surrogates), security headers, cookies, WebSocket
 * upgrades and the OpenAPI document.
 */
export async function registerPlatformPlugins(
  app: FastifyInstance,
  {
    // Where the browser is redirected for media (a store or CDN origin, STORAGE=s3).
    mediaOrigins = [],
    // Strict-Transport-Security only when PUBLIC_URL is https: sent over plain http (a LAN
    // install, localhost) it would pin browsers to an https that does not exist.
    hsts = false,
    // Told of requests that failed because the database is unreachable (they answer 503).
    onDatabaseUnavailable,
  }: {
    mediaOrigins?: string[];
    hsts?: boolean;
    onDatabaseUnavailable?: (error: unknown) => void;
  } = {},
): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, onDatabaseUnavailable);
  registerTextGuard(app);
  // A client that hung up while an onRequest hook awaited (access checks read the database)
  // left a body that will never end: a parser started now would wait for it forever.
  app.addHook('preParsing', async (request) => {
    if (request.raw.readableAborted) throw bodyEndedEarly();
  });

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', 'https:', ...mediaOrigins],
        // Media origins: a download fetches the file to store it (docs/decisions/0036).
        connectSrc: ["'self'", 'ws:', 'wss:', ...mediaOrigins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: hsts,
  });
  await app.register(cookie);
  // WebSocket routes for live events (docs/decisions/0021), here once for the whole server:
  // the plugin owns the HTTP server's 'upgrade' event, which a second registration (another
  // feature's socket) would fight over. Before swagger, whose document then leaves them out.
  // A frame over 64 KiB closes its socket (1009) before it is buffered whole.
  await app.register(websocket, { options: { maxPayload: LIVE_MAX_FRAME_BYTES } });

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
    transform: documentMultipartBodies,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
