import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * A handler that may answer a request before Fastify: false at once when the request is not
 * its own, or a promise of whether it answered (false: it wrote nothing, Fastify answers).
 */
export type RequestLane = (req: IncomingMessage, res: ServerResponse) => false | Promise<boolean>;

/**
 * Puts `lane` in front of Fastify's request handler on the app's server (media's lane for
 * plain seeks, docs/decisions/0010). Fastify keeps everything else: its server, timeouts,
 * upgrades, close. A lane that throws is logged and the request goes to Fastify if nothing
 * was sent; once the app starts closing every request goes to Fastify (which refuses them).
 * `app.inject` never passes here: tests of a lane use real HTTP.
 */
export function putLaneInFront(
  app: FastifyInstance,
  lane: RequestLane,
  hooks: { answered?: () => void } = {},
): void {
  const server = app.server;
  const listeners = server.listeners('request');
  // Fastify makes its server with its handler as the one listener; fail loudly if not.
  if (listeners.length !== 1) throw new Error('expected Fastify to be the one request listener');
  const fastify = listeners[0] as (req: IncomingMessage, res: ServerResponse) => void;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const failed = (error: unknown, req: IncomingMessage, res: ServerResponse) => {
    app.log.error({ err: error, url: req.url }, 'a request lane failed');
    if (res.headersSent) res.destroy();
    else fastify(req, res);
  };
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing) return fastify(req, res);
    let pending: false | Promise<boolean>;
    try {
      pending = lane(req, res);
    } catch (error) {
      return failed(error, req, res);
    }
    if (pending === false) return fastify(req, res);
    pending
      .then(
        (answered) => (answered ? hooks.answered?.() : fastify(req, res)),
        (error: unknown) => failed(error, req, res),
      )
      .catch((error: unknown) => app.log.error({ err: error, url: req.url }, 'request failed'));
  });
}
