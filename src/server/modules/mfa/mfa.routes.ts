import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mfaApi } from '../../../contracts/api/mfa.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { AuthModule } from '../auth/auth.module.ts';
import type { MfaService } from './mfa.service.ts';
import { requirePrincipal } from '../../http/access-policy.ts';

export type MfaRoutesDeps = {
  mfa: MfaService;
  auth: Pick<AuthModule, 'elevate' | 'setSessionCookies' | 'factorsChanged'>;
};

const tags = ['auth'];

/** Spec §7 Auth, multi-factor; mounted at /api/auth. */
export const mfaRoutes =
  ({ mfa, auth }: MfaRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Anonymous callers are refused before their input is validated (every route here is signed-in).
    // allowAal1: what the challenge of an aal1 session needs (list, challenge, verify); adding
    // or removing a factor takes aal2 once one is verified.
    app.addHook('preValidation', async (request) => void requirePrincipal(request));

    contractRoute(app, mfaApi.factors, {
      config: { access: 'signed-in', allowAal1: true },
      schema: { tags, summary: "The caller's MFA factors" },
      handler: async (request) => mfa.list(requirePrincipal(request).userId),
    });

    contractRoute(app, mfaApi.enrol, {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Enrol a factor (totp: secret and otpauth URI; webauthn: registration options)',
      },
      handler: async (request, reply) => {
        const enrolled = await mfa.enrol(requirePrincipal(request), request.body);
        return reply.status(201).send(enrolled);
      },
    });

    contractRoute(app, mfaApi.challenge, {
      config: { access: 'signed-in', allowAal1: true },
      schema: { tags, summary: 'Open a challenge for a factor' },
      handler: async (request, reply) => {
        const opened = await mfa.challenge(requirePrincipal(request), request.params.factorId);
        return reply.status(201).send(opened);
      },
    });

    contractRoute(app, mfaApi.verify, {
      config: { access: 'signed-in', allowAal1: true },
      schema: { tags, summary: 'Answer a challenge; the session rises to aal2' },
      handler: async (request, reply) => {
        const principal = requirePrincipal(request);
        await mfa.verify(principal, request.params.factorId, request.body);
        const session = await auth.elevate(principal.sessionId);
        auth.setSessionCookies(reply, session);
        return reply.header('cache-control', 'no-store').send(session);
      },
    });

    contractRoute(app, mfaApi.remove, {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Remove a factor (a verified one needs an aal2 session)' },
      handler: async (request, reply) => {
        const principal = requirePrincipal(request);
        await mfa.remove(principal, request.params.factorId);
        auth.factorsChanged(principal.userId);
        return reply.status(204).send(null);
      },
    });
  };
