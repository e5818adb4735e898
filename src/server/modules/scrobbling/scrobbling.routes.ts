import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { scrobblingApi } from '../../../contracts/api/scrobbling.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import type { ScrobblingService } from './scrobbling.service.ts';

// Every route acts on the signed-in caller's own connections.
export const scrobblingRoutes =
  ({ scrobbling }: { scrobbling: ScrobblingService }): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['scrobbling'];

    contractRoute(app, scrobblingApi.settings, {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          "The caller's ListenBrainz and Last.fm connections, and whether Last.fm is offered",
      },
      handler: async (request) => scrobbling.settings(requirePrincipal(request).userId),
    });

    contractRoute(app, scrobblingApi.connectListenBrainz, {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Connect ListenBrainz with a user token (checked with ListenBrainz first)',
      },
      handler: async (request) =>
        scrobbling.connectListenBrainz(requirePrincipal(request).userId, request.body.token),
    });

    contractRoute(app, scrobblingApi.disconnectListenBrainz, {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Disconnect ListenBrainz (scrobbles not sent yet are dropped)' },
      handler: async (request, reply) => {
        await scrobbling.disconnect(requirePrincipal(request).userId, 'listenbrainz');
        return reply.code(204).send();
      },
    });

    contractRoute(app, scrobblingApi.startLastfm, {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary:
          "Start connecting Last.fm: the Last.fm page where the caller allows Canto's access",
      },
      handler: async (request) => scrobbling.startLastfm(requirePrincipal(request).userId),
    });

    contractRoute(app, scrobblingApi.finishLastfm, {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Finish connecting Last.fm once the caller has allowed access' },
      handler: async (request) => scrobbling.finishLastfm(requirePrincipal(request).userId),
    });

    contractRoute(app, scrobblingApi.disconnectLastfm, {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Disconnect Last.fm (scrobbles not sent yet are dropped)' },
      handler: async (request, reply) => {
        await scrobbling.disconnect(requirePrincipal(request).userId, 'lastfm');
        return reply.code(204).send();
      },
    });
  };
