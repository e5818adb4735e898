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
} from '../auth.contract.ts';
import { defineRoute } from './define-route.ts';

export const authApi = {
  signUp: defineRoute({
    method: 'POST',
    path: '/api/auth/sign-up',
    body: signUpBody,
    status: 201,
    response: authSession,
  }),
  signIn: defineRoute({
    method: 'POST',
    path: '/api/auth/sign-in',
    body: signInBody,
    response: authSession,
  }),
  // The refresh token may come in the body or, from the web app, in its cookie.
  signOut: defineRoute({ method: 'POST', path: '/api/auth/sign-out', body: signOutBody.nullish() }),
  refresh: defineRoute({
    method: 'POST',
    path: '/api/auth/refresh',
    body: refreshBody.nullish(),
    response: authSession,
  }),
  session: defineRoute({ method: 'GET', path: '/api/auth/session', response: sessionInfo }),
  user: defineRoute({ method: 'GET', path: '/api/auth/user', response: sessionUser }),
  recover: defineRoute({
    method: 'POST',
    path: '/api/auth/recover',
    body: recoverBody,
    response: recoverResult,
  }),
  // Answers with a new session: the reset ended every other one and signs the user in here.
  resetPassword: defineRoute({
    method: 'POST',
    path: '/api/auth/reset-password',
    body: resetPasswordBody,
    response: authSession,
  }),
  verifyEmail: defineRoute({
    method: 'POST',
    path: '/api/auth/verify-email',
    body: verifyEmailBody,
  }),
  /** Mails the signed-in user a fresh verification link (an unconfirmed address only). */
  resendVerification: defineRoute({
    method: 'POST',
    path: '/api/auth/verify-email/resend',
    status: 204,
  }),
  jwks: defineRoute({ method: 'GET', path: '/api/auth/jwks.json', response: jwksDocument }),
  /** The same keys at the conventional well-known address, outside /api. */
  wellKnownJwks: defineRoute({
    method: 'GET',
    path: '/.well-known/jwks.json',
    response: jwksDocument,
  }),
};
