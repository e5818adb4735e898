import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * False on routes that set their own headers (media, episode audio): helmet's page
     * headers (CSP, frame options…) are for documents.
     */
    securityHeaders?: false;
  }
}

/**
 * helmet's headers on every response of a route that does not opt out. The middleware is
 * built once: @fastify/helmet called `helmet(options)` on every request, parsing the CSP
 * directives and building each header's function again (~0.25 ms, 7 % of the server's CPU
 * under load on /api/health).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, next) => {
    if (request.routeOptions.config.securityHeaders === false) return next();
    apply(request.raw, reply.raw, (error?: unknown) => next(error as Error | undefined));
  });
}
