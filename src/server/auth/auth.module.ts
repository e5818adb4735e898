import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
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
  /** Fastify plugin mounted at /api/auth. */
  routes: FastifyPluginAsync;
};

// STUB: replaced by the real implementation (sessions, refresh rotation, MFA).
export async function createAuthModule(_deps: AuthModuleDeps): Promise<AuthModule> {
  return {
    resolvePrincipal: async () => null,
    routes: async () => {},
  };
}
