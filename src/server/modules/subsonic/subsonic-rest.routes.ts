import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../../security/rate-limit.ts';
import type { SubsonicAuthService } from './subsonic-auth.service.ts';
import { envelope, isCallbackName, toJson, toXml } from './subsonic-envelope.ts';
import {
  SubsonicCode,
  SubsonicError,
  type SubsonicBinary,
  type SubsonicMethods,
  type SubsonicParams,
  type SubsonicPayload,
} from './subsonic-method.ts';

/** Methods any client may call before it has credentials. */
const WITHOUT_AUTH = new Set(['getOpenSubsonicExtensions']);
/** A form body's limit: parameters, not uploads. */
const FORM_LIMIT = 64 * 1024;

// The /rest router (docs/decisions/0034): outside the typed /api table, since its callers are
// Subsonic apps speaking their own protocol. Every answer is HTTP 200 with an envelope, errors
// included (unknown methods too, where Navidrome answers 404): clients read the error code,
// and many show nothing useful for an HTTP error.

type Format = { kind: 'xml' } | { kind: 'json' } | { kind: 'jsonp'; callback: string };

function paramsOf(request: FastifyRequest): SubsonicParams {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const form = request.body instanceof URLSearchParams ? request.body : undefined;
  return {
    get: (name) => query.get(name) ?? form?.get(name) ?? undefined,
    all: (name) => [...query.getAll(name), ...(form?.getAll(name) ?? [])],
  };
}

const isBinary = (value: SubsonicPayload | SubsonicBinary): value is SubsonicBinary =>
  (value as SubsonicBinary).binary === true && typeof value.send === 'function';

export const subsonicRestRoutes =
  ({
    methods,
    auth,
    serverVersion,
  }: {
    methods: SubsonicMethods;
    auth: SubsonicAuthService;
    serverVersion: string;
  }): FastifyPluginAsync =>
  async (app) => {
    // formPost: a form body's parameters join the query's (this scope only).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, new URLSearchParams(body as string)),
    );

    function send(
      reply: FastifyReply,
      format: Format,
      status: 'ok' | 'failed',
      payload: SubsonicPayload,
    ) {
      const body = envelope({ status, serverVersion }, payload);
      reply.code(200);
      if (format.kind === 'xml')
        return reply.type('application/xml; charset=utf-8').send(toXml(body));
      if (format.kind === 'json')
        return reply.type('application/json; charset=utf-8').send(toJson(body));
      return reply
        .type('application/javascript; charset=utf-8')
        .send(`${format.callback}(${toJson(body)});`);
    }

    const failure = (reply: FastifyReply, format: Format, code: number, message: string) =>
      send(reply, format, 'failed', { error: { code, message } });

    /** The answer's format; jsonp without a usable callback is refused in JSON. */
    function formatOf(params: SubsonicParams): Format | SubsonicError {
      const f = params.get('f');
      if (f === 'json') return { kind: 'json' };
      if (f !== 'jsonp') return { kind: 'xml' };
      const callback = params.get('callback');
      if (!callback)
        return new SubsonicError(
          SubsonicCode.missingParameter,
          'Required parameter is missing: callback',
        );
      if (!isCallbackName(callback))
        return new SubsonicError(SubsonicCode.generic, 'Invalid callback');
      return { kind: 'jsonp', callback };
    }

    // Whatever fails in this scope (a bad form body, the text guard, a method's bug) is an
    // envelope, never a 4xx or 5xx page a Subsonic app cannot read.
    app.setErrorHandler((error, request, reply) => {
      let format: Format = { kind: 'xml' };
      try {
        const f = formatOf(paramsOf(request));
        format = f instanceof SubsonicError ? { kind: 'json' } : f;
      } catch {
        // The URL itself is unreadable: XML it is.
      }
      if (error instanceof SubsonicError) return failure(reply, format, error.code, error.message);
      const status = (error as { statusCode?: number }).statusCode;
      if (status && status < 500) {
        request.log.info({ reason: (error as Error).message }, 'subsonic request refused');
        return failure(reply, format, SubsonicCode.generic, 'Invalid request');
      }
      request.log.error({ err: error }, 'subsonic method failed');
      return failure(reply, format, SubsonicCode.generic, 'Internal error');
    });

    const headers = (reply: FastifyReply) =>
      reply
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff')
        // Browser players on other origins load stream and cover art URLs in <audio>/<img>.
        .header('cross-origin-resource-policy', 'cross-origin');

    // CORS preflight: any origin, the methods and headers a Subsonic web client sends.
    app.options(
      '/rest/*',
      { config: { securityHeaders: false }, schema: { hide: true } },
      async (_request, reply) =>
        headers(reply)
          .header('access-control-allow-methods', 'GET, POST, OPTIONS')
          .header(
            'access-control-allow-headers',
            'Content-Type, Authorization, X-Requested-With, Accept, Range',
          )
          .header('access-control-max-age', '86400')
          .code(204)
          .send(),
    );

    app.route({
      method: ['GET', 'POST'],
      url: '/rest/:method',
      config: { securityHeaders: false },
      schema: {
        tags: ['subsonic'],
        summary:
          'OpenSubsonic API method (ADR 0034): query or form parameters, XML/JSON/JSONP envelope, errors as HTTP 200 envelopes',
      },
      handler: async (request, reply) => {
        headers(reply);
        const params = paramsOf(request);
        const format = formatOf(params);
        if (format instanceof SubsonicError)
          return failure(reply, { kind: 'json' }, format.code, format.message);
        const name = (request.params as { method: string }).method.replace(/\.view$/, '');
        const handler = Object.hasOwn(methods, name) ? methods[name] : undefined;
        try {
          if (WITHOUT_AUTH.has(name) && handler)
            return send(reply, format, 'ok', (await handler(ANONYMOUS, params)) as SubsonicPayload);
          const caller = await auth.authenticate(params, clientAddress(request));
          if (!handler) return failure(reply, format, SubsonicCode.generic, 'Unknown method');
          const result = await handler(caller, params);
          if (isBinary(result)) return result.send(request, reply);
          return send(reply, format, 'ok', result);
        } catch (error) {
          if (error instanceof SubsonicError)
            return failure(reply, format, error.code, error.message);
          request.log.error({ err: error, method: name }, 'subsonic method failed');
          return failure(reply, format, SubsonicCode.generic, 'Internal error');
        }
      },
    });
  };

const ANONYMOUS = { userId: '', username: '', roles: [] as string[] };
