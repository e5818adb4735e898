import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { NOTIFICATIONS_LIVE_PATH } from '../../../contracts/notifications.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { accessTokenOf, requirePrincipal } from '../../http/access-policy.ts';
import { pathUnder } from '../../http/contract-route.ts';
import type { LiveSocket } from '../../events/live-connections.ts';
import { originAllowed } from '../../events/live-origin.ts';
import type { LiveNotifications } from './notifications-live.ts';

/**
 * GET /api/me/notifications/live, upgraded to a WebSocket (docs/decisions/0021). The access
 * policy authenticates the handshake like any request (the session cookie, or a Bearer
 * header for non-browser clients; a token in the URL is never read) before it is upgraded:
 * without a live session it is answered 401 and no socket opens. Then its Origin must be
 * Canto's own (403).
 */
export const notificationsLiveRoutes =
  ({
    live,
    origins,
  }: {
    live: LiveNotifications;
    origins: ReadonlySet<string>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    // Not in the route table: an upgrade to a socket, not a request and its answer; the path is
    // the contract's, which the web app connects to.
    app.get(
      pathUnder(app, NOTIFICATIONS_LIVE_PATH),
      {
        websocket: true,
        config: { access: 'signed-in' },
        onRequest: async (request) => {
          if (!originAllowed(request.headers.origin, origins))
            throw new AppError(ErrorCode.forbidden, 'Origin not allowed');
        },
      },
      (socket: LiveSocket, request) => {
        // The policy verified this token; its expiry bounds the socket (live-connections.ts).
        const exp = decodeJwt(accessTokenOf(request)!).exp ?? 0;
        const { userId, sessionId } = requirePrincipal(request);
        live.attach(socket, { userId, sessionId, expiresAt: exp * 1000 });
      },
    );
  };
