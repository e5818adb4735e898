import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authSession, errorBody } from '../../../contracts/auth.contract.ts';
import {
  challenge,
  enrolFactorBody,
  enrolledFactor,
  factorList,
  factorParams,
  verifyFactorBody,
} from '../../../contracts/mfa.contract.ts';
import type { AuthModule } from '../auth/auth.module.ts';
import type { MfaService } from './mfa.service.ts';
import { requirePrincipal } from '../../http/access-policy.ts';

export type MfaRoutesDeps = {
  mfa: MfaService;
  auth: Pick<AuthModule, 'elevate' | 'setSessionCookies'>;
};

const tags = ['auth'];
const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
  429: errorBody,
  501: errorBody,
};

/** Spec §7 Auth, multi-factor; mounted at /api/auth. */
export const mfaRoutes =
  ({ mfa, auth }: MfaRoutesDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Anonymous callers are refused before their input is validated (every route here is signed-in).
    // allowAal1: what the challenge of an aal1 session needs (list, challenge, verify); adding
    // or removing a factor takes aal2 once one is verified.
    app.addHook('preValidation', async (request) => void requirePrincipal(request));

    app.get(
      '/factors',
      {
        config: { access: 'signed-in', allowAal1: true },
        schema: {
          tags,
          summary: "The caller's MFA factors",
          response: { 200: factorList, 401: errorBody },
        },
      },
      async (request) => mfa.list(requirePrincipal(request).userId),
    );

    app.post(
      '/factors',
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: 'Enrol a factor (totp: secret and otpauth URI; webauthn: registration options)',
          body: enrolFactorBody,
          response: { 201: enrolledFactor, ...errors },
        },
      },
      async (request, reply) => {
        const enrolled = await mfa.enrol(requirePrincipal(request), request.body);
        return reply.status(201).send(enrolled);
      },
    );

    app.post(
      '/factors/:factorId/challenge',
      {
        config: { access: 'signed-in', allowAal1: true },
        schema: {
          tags,
          summary: 'Open a challenge for a factor',
          params: factorParams,
          response: { 201: challenge, ...errors },
        },
      },
      async (request, reply) => {
        const opened = await mfa.challenge(requirePrincipal(request), request.params.factorId);
        return reply.status(201).send(opened);
      },
    );

    app.post(
      '/factors/:factorId/verify',
      {
        config: { access: 'signed-in', allowAal1: true },
        schema: {
          tags,
          summary: 'Answer a challenge; the session rises to aal2',
          params: factorParams,
          body: verifyFactorBody,
          response: { 200: authSession, ...errors },
        },
      },
      async (request, reply) => {
        const principal = requirePrincipal(request);
        await mfa.verify(principal, request.params.factorId, request.body);
        const session = await auth.elevate(principal.sessionId);
        auth.setSessionCookies(reply, session);
        return reply.header('cache-control', 'no-store').send(session);
      },
    );

    app.delete(
      '/factors/:factorId',
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: 'Remove a factor (a verified one needs an aal2 session)',
          params: factorParams,
          response: { 204: z.null().describe('Removed'), ...errors },
        },
      },
      async (request, reply) => {
        await mfa.remove(requirePrincipal(request), request.params.factorId);
        return reply.status(204).send(null);
      },
    );
  };
