import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authSession,
  jwksDocument,
  recoverBody,
  recoverResult,
  refreshBody,
  resetPasswordBody,
  sessionInfo,
  sessionUser,
  signInBody,
  signOutBody,
  signUpBody,
  verifyEmailBody,
} from '../../../contracts/auth.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { accessTokenOf, REFRESH_COOKIE, requirePrincipal } from '../../http/access-policy.ts';
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

    app.post(
      '/sign-up',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Create an account and sign in',
          body: signUpBody,
          response: { 201: authSession },
        },
      },
      async (request, reply) => {
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
    );

    app.post(
      '/sign-in',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Sign in with email and password',
          body: signInBody,
          response: { 200: authSession },
        },
      },
      async (request, reply) => {
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
    );

    app.post(
      '/sign-out',
      {
        // Public so an expired access token can still sign out; revokes what it can identify.
        config: { access: 'public', optionalPrincipal: true, allowAal1: true },
        schema: {
          tags,
          summary: 'Revoke the session and clear cookies',
          body: signOutBody.nullish(),
        },
      },
      async (request, reply) => {
        const refreshToken = request.body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
        await sessions.signOut({
          principal: request.principal,
          refreshToken: refreshToken || undefined,
        });
        cookies.clear(reply);
        return reply.status(204).send();
      },
    );

    app.post(
      '/refresh',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Exchange a refresh token (body or cookie) for new tokens',
          body: refreshBody.nullish(),
          response: { 200: authSession },
        },
      },
      async (request, reply) => {
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
    );

    app.get(
      '/session',
      {
        // An aal1 session must learn that it owes a factor (next_aal) to be challenged.
        config: { access: 'signed-in', allowAal1: true },
        schema: { tags, summary: 'The current session', response: { 200: sessionInfo } },
      },
      async (request) => sessions.info(requirePrincipal(request), accessTokenOf(request)!),
    );

    app.get(
      '/user',
      {
        config: { access: 'signed-in' },
        schema: { tags, summary: 'The signed-in user', response: { 200: sessionUser } },
      },
      async (request) => {
        const user = await sessions.userOf(requirePrincipal(request).userId);
        if (!user) throw new AppError(ErrorCode.unauthenticated, 'Authentication required');
        return user;
      },
    );

    app.post(
      '/recover',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Email a password reset link',
          body: recoverBody,
          response: { 200: recoverResult },
        },
      },
      async (request) => {
        const ip = clientAddress(request);
        const { email } = request.body;
        await limiter.hit(
          { rule: rateRules.recoverPerIp, subject: ip },
          { rule: rateRules.recoverPerEmail, subject: emailKey(email) },
        );
        await recovery.requestPasswordReset(email);
        return { message: RECOVER_MESSAGE };
      },
    );

    app.post(
      '/reset-password',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Set a new password with a reset link token',
          body: resetPasswordBody,
        },
      },
      async (request, reply) => {
        const { token, password } = request.body;
        await limiter.hit(
          { rule: rateRules.resetPasswordPerIp, subject: clientAddress(request) },
          { rule: rateRules.resetPasswordPerToken, subject: tokenKey(token) },
        );
        await recovery.resetPassword(token, password);
        cookies.clear(reply);
        return reply.status(204).send();
      },
    );

    app.post(
      '/verify-email',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Confirm an email address with a verification token',
          body: verifyEmailBody,
        },
      },
      async (request, reply) => {
        // Per address only: verifying does no costly work, and a token is single-use.
        await limiter.hit({ rule: rateRules.verifyEmailPerIp, subject: clientAddress(request) });
        await recovery.verifyEmail(request.body.token);
        return reply.status(204).send();
      },
    );

    app.get(
      '/jwks.json',
      {
        config: { access: 'public' },
        schema: { tags, summary: 'Public keys of access tokens', response: { 200: jwksDocument } },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return deps.keys.jwks();
      },
    );
  };

/** GET /.well-known/jwks.json, outside the /api/auth prefix. */
export const wellKnownRoutes =
  (deps: { keys: KeyStore }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/.well-known/jwks.json',
      {
        config: { access: 'public' },
        schema: { tags, summary: 'Public keys of access tokens', response: { 200: jwksDocument } },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return deps.keys.jwks();
      },
    );
  };
