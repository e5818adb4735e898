import type { FastifyReply } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../http/access-policy.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  SESSION_IDLE_TTL_MS,
} from '../../../core/auth/refresh-rotation.ts';
import type { AuthSession } from '../../../contracts/auth.contract.ts';

// The refresh cookie only travels to /api/auth, where it is exchanged or revoked.
const REFRESH_PATH = '/api/auth';

export function createSessionCookies(publicUrl: string) {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: publicUrl.startsWith('https:') };
  return {
    set(reply: FastifyReply, session: AuthSession): void {
      reply.setCookie(ACCESS_COOKIE, session.access_token, {
        ...base,
        path: '/',
        maxAge: ACCESS_TOKEN_TTL_SECONDS,
      });
      reply.setCookie(REFRESH_COOKIE, session.refresh_token, {
        ...base,
        path: REFRESH_PATH,
        maxAge: Math.floor(SESSION_IDLE_TTL_MS / 1000),
      });
    },
    clear(reply: FastifyReply): void {
      reply.clearCookie(ACCESS_COOKIE, { ...base, path: '/' });
      reply.clearCookie(REFRESH_COOKIE, { ...base, path: REFRESH_PATH });
    },
  };
}
export type SessionCookies = ReturnType<typeof createSessionCookies>;
