import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { COMPANION_PATH } from '../../../contracts/companion.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { accessTokenOf } from '../../http/access-policy.ts';
import { pathUnder } from '../../http/contract-route.ts';
import { originAllowed } from '../../events/live-origin.ts';
import type { CompanionSocket, createCompanionService } from './companion.service.ts';

/**
 * GET /api/ai/companion, upgraded to a WebSocket (docs/decisions/0033). Unlike the live
 * notifications, a handshake without a session is still upgraded: the socket then closes
 * with 4401 (and a free listener's with 4403), codes the companion panel can tell apart, which
 * a browser never sees of a refused handshake. The Origin must be Canto's own (403).
 */
export const companionRoutes =
  ({
    companion,
    origins,
  }: {
    companion: ReturnType<typeof createCompanionService>;
    origins: ReadonlySet<string>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // Not in the route table: an upgrade to a socket, not a request and its answer.
    app.get(
      pathUnder(app, COMPANION_PATH),
      {
        websocket: true,
        // Public so the signed-out get their close code; the principal is still resolved.
        config: { access: 'public', optionalPrincipal: true },
        onRequest: async (request) => {
          if (!originAllowed(request.headers.origin, origins))
            throw new AppError(ErrorCode.forbidden, 'Origin not allowed');
        },
      },
      (socket: CompanionSocket, request) => {
        // The policy verified this token; its expiry bounds the socket (4001: reconnect).
        const token = request.principal ? accessTokenOf(request) : undefined;
        const exp = token ? (decodeJwt(token).exp ?? 0) * 1000 : 0;
        companion.attach(socket, request.principal, exp);
      },
    );
  };
