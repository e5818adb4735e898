import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { subsonicApi } from '../../../contracts/api/subsonic.api.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { SubsonicAuthService } from './subsonic-auth.service.ts';

// A user's own Subsonic app passwords: each route acts for the signed-in caller only, and
// another user's id is simply not found.
export const subsonicPasswordsRoutes =
  ({ auth }: { auth: SubsonicAuthService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, subsonicApi.listPasswords, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['subsonic'],
        summary: "The caller's Subsonic app passwords (never the secrets)",
      },
      handler: async (request) => ({ items: await auth.list(requirePrincipal(request).userId) }),
    });

    contractRoute(app, subsonicApi.createPassword, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['subsonic'],
        summary: 'Create a Subsonic app password: its secret is in this answer only',
      },
      handler: async (request, reply) =>
        reply
          .code(201)
          .send(await auth.create(requirePrincipal(request).userId, request.body.name)),
    });

    contractRoute(app, subsonicApi.revokePassword, {
      config: { access: 'signed-in' },
      schema: {
        tags: ['subsonic'],
        summary: "Revoke one of the caller's app passwords: its apps are refused from now on",
      },
      handler: async (request, reply) => {
        await auth.revoke(requirePrincipal(request).userId, request.params.id);
        return reply.code(204).send();
      },
    });
  };
