import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authApi } from '../../../contracts/api/auth.api.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { accessTokenOf, REFRESH_COOKIE, requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { AccountsService } from './accounts.service.ts';
import type { SessionCookies } from './session-cookies.ts';
import type { KeyStore } from '../../security/keys.ts';
import {
  clientAddress,
  emailKey,
  rateRules,
  tokenKey,
  type RateLimiter,
} from '../../security/rate-limit.ts';
import type { RecoveryService } from './recovery.service.ts';
import type { SessionsService } from './sessions.service.ts';

export type AuthRouteDeps = {
  accounts: AccountsService;
  sessions: SessionsService;
  recovery: RecoveryService;
  limiter: RateLimiter;
  cookies: SessionCookies;
  keys: KeyStore;
};

const RECOVER_MESSAGE = 'If an account exists for this email, a password reset link has been sent.';
const tags = ['auth'];

/** Mounted at /api/auth. Handlers stay thin: rules live in the services. */
export const authRoutes =
  (deps: AuthRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { accounts, sessions, recovery, limiter, cookies } = deps;
    const meta = (request: { headers: Record<string, unknown> }, ip: string) => ({
      ip,
      userAgent:
        typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
    });

    contractRoute(app, authApi.signUp, {
      config: { access: 'public' },
      schema: { tags, summary: 'Create an account and sign in' },
      handler: async (request, reply) => {
        const ip = clientAddress(request);
        await limiter.hit({ rule: rateRules.signUpPerIp, subject: ip });
        const { email, password, display_name, is_artist } = request.body;
        const { userId } = await accounts.create({
          email,
          password,
          displayName: display_name,
          isArtist: is_artist,
        });
        await recovery.sendVerification(userId, email);
        const session = await sessions.start(userId, meta(request, ip));
        cookies.set(reply, session);
        return reply.status(201).send(session);
      },
    });

    contractRoute(app, authApi.signIn, {
      config: { access: 'public' },
      schema: { tags, summary: 'Sign in with email and password' },
      handler: async (request, reply) => {
        const ip = clientAddress(request);
        const { email, password } = request.body;
        await limiter.hit(
          { rule: rateRules.signInPerIpEmail, subject: `${ip}:${emailKey(email)}` },
          { rule: rateRules.signInPerIp, subject: ip },
        );
        const userId = await accounts.checkCredentials(email, password);
        const session = await sessions.start(userId, meta(request, ip));
        cookies.set(reply, session);
        return session;
      },
    });

    contractRoute(app, authApi.signOut, {
      // Public so an expired access token can still sign out; revokes what it can identify.
      config: { access: 'public', optionalPrincipal: true, allowAal1: true },
      schema: { tags, summary: 'Revoke the session and clear cookies' },
      handler: async (request, reply) => {
        const refreshToken = request.body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
        await sessions.signOut({
          principal: request.principal,
          refreshToken: refreshToken || undefined,
        });
        cookies.clear(reply);
        return reply.status(204).send();
      },
    });

    contractRoute(app, authApi.refresh, {
      config: { access: 'public' },
      schema: { tags, summary: 'Exchange a refresh token (body or cookie) for new tokens' },
      handler: async (request, reply) => {
        const presented = request.body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
        if (!presented) throw new AppError(ErrorCode.unauthenticated, 'Refresh token required');
        try {
          const session = await sessions.refresh(presented);
          cookies.set(reply, session);
          return session;
        } catch (error) {
          // A dead refresh token will not come back to life: drop the cookies with the answer.
          if (error instanceof AppError) cookies.clear(reply);
          throw error;
        }
      },
    });

    contractRoute(app, authApi.session, {
      // An aal1 session must learn that it owes a factor (next_aal) to be challenged.
      config: { access: 'signed-in', allowAal1: true },
      schema: { tags, summary: 'The current session' },
      handler: async (request) => sessions.info(requirePrincipal(request), accessTokenOf(request)!),
    });

    contractRoute(app, authApi.user, {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'The signed-in user' },
      handler: async (request) => {
        const user = await sessions.userOf(requirePrincipal(request).userId);
        if (!user) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
        return user;
      },
    });

    contractRoute(app, authApi.recover, {
      config: { access: 'public' },
      schema: { tags, summary: 'Email a password reset link' },
      handler: async (request) => {
        const ip = clientAddress(request);
        const { email } = request.body;
        await limiter.hit(
          { rule: rateRules.recoverPerIp, subject: ip },
          { rule: rateRules.recoverPerEmail, subject: emailKey(email) },
        );
        await recovery.requestPasswordReset(email);
        return { message: RECOVER_MESSAGE };
      },
    });

    contractRoute(app, authApi.resetPassword, {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with a reset link token, end every session, sign in',
      },
      handler: async (request, reply) => {
        const { token, password } = request.body;
        const ip = clientAddress(request);
        await limiter.hit(
          { rule: rateRules.resetPasswordPerIp, subject: ip },
          { rule: rateRules.resetPasswordPerToken, subject: tokenKey(token) },
        );
        const { userId } = await recovery.resetPassword(token, password);
        // Every earlier session was revoked with the password; this one starts after it (aal1:
        // an account with a factor still passes its challenge).
        const session = await sessions.start(userId, meta(request, ip));
        cookies.set(reply, session);
        return session;
      },
    });

    contractRoute(app, authApi.verifyEmail, {
      config: { access: 'public' },
      schema: { tags, summary: 'Confirm an email address with a verification token' },
      handler: async (request, reply) => {
        // Per address only: verifying does no costly work, and a token is single-use.
        await limiter.hit({ rule: rateRules.verifyEmailPerIp, subject: clientAddress(request) });
        await recovery.verifyEmail(request.body.token);
        return reply.status(204).send();
      },
    });

    contractRoute(app, authApi.resendVerification, {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Mail a new email verification link to the signed-in user' },
      handler: async (request, reply) => {
        const { userId } = requirePrincipal(request);
        await limiter.hit({ rule: rateRules.verifyEmailResendPerUser, subject: userId });
        await recovery.resendVerification(userId);
        return reply.status(204).send();
      },
    });

    contractRoute(app, authApi.jwks, {
      config: { access: 'public' },
      schema: { tags, summary: 'Public keys of access tokens' },
      handler: async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return deps.keys.jwks();
      },
    });
  };

/** GET /.well-known/jwks.json, outside the /api/auth prefix. */
export const wellKnownRoutes =
  (deps: { keys: KeyStore }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, authApi.wellKnownJwks, {
      config: { access: 'public' },
      schema: { tags, summary: 'Public keys of access tokens' },
      handler: async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return deps.keys.jwks();
      },
    });
  };
