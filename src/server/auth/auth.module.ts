import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AuthSession } from '../../contracts/auth.contract.ts';
import type { Env } from '../env.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../app.ts';
import type { Mailer } from '../services/mailer.ts';
import type { RolesRepository } from '../db/repositories/roles.repository.ts';
import type { Principal } from '../http/access-policy.ts';

export type AuthModuleDeps = {
  env: Env;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  roles: RolesRepository;
  log: FastifyBaseLogger;
};

export type AuthModule = {
  resolvePrincipal(accessToken: string): Promise<Principal | null>;
  /** Fastify plugin mounted at /api/auth (sign-up/in/out, refresh, session, recovery, JWKS). */
  routes: FastifyPluginAsync;
  /** Account creation for start-up (ADMIN_EMAIL), the admin CLI and demo content. */
  accounts: {
    create(input: { email: string; password: string; displayName: string; isArtist?: boolean }): Promise<{ userId: string }>;
    findByEmail(email: string): Promise<{ userId: string } | null>;
    setPassword(userId: string, password: string): Promise<void>;
  };
  /**
   * Raises a session to aal2 after a verified MFA factor (used by the MFA module) and
   * returns fresh credentials for it; the caller sets them with setSessionCookies.
   */
  elevate(sessionId: string): Promise<AuthSession>;
  setSessionCookies(reply: FastifyReply, session: AuthSession): void;
  /** Whether the user has at least one verified factor (next_aal = aal2). */
  hasVerifiedFactor(userId: string): Promise<boolean>;
};

// STUB: replaced by the real implementation (sessions, refresh rotation, MFA).
export async function createAuthModule(_deps: AuthModuleDeps): Promise<AuthModule> {
  const missing = () => {
    throw new Error('auth module not implemented');
  };
  return {
    resolvePrincipal: async () => null,
    routes: async () => {},
    accounts: { create: missing, findByEmail: missing, setPassword: missing },
    elevate: missing,
    setSessionCookies: missing,
    hasVerifiedFactor: async () => false,
  };
}
