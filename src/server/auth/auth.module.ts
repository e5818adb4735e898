import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AuthSession } from '../../contracts/auth.contract.ts';
import type { Env } from '../env.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../app.ts';
import type { Mailer } from '../services/mailer.ts';
import type { RolesRepository } from '../db/repositories/roles.repository.ts';
import type { Principal } from '../http/access-policy.ts';
import { resolveSecretKey } from '../secrets.ts';
import { createAuthTokensRepository } from '../db/repositories/auth-tokens.repository.ts';
import { createRateLimitsRepository } from '../db/repositories/rate-limits.repository.ts';
import { createSessionsRepository } from '../db/repositories/sessions.repository.ts';
import { createSigningKeysRepository } from '../db/repositories/signing-keys.repository.ts';
import { createUsersRepository } from '../db/repositories/users.repository.ts';
import { createAccountsService } from './accounts.service.ts';
import { authRoutes, wellKnownRoutes } from './auth.routes.ts';
import { createSessionCookies } from './cookies.ts';
import { createKeyStore } from './keys.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createRecoveryService } from './recovery.service.ts';
import { createSecretBox } from './secret-box.ts';
import { createSessionsService } from './sessions.service.ts';

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
  /** GET /.well-known/jwks.json, registered at the root. */
  wellKnownRoutes: FastifyPluginAsync;
  /** Account creation for start-up (ADMIN_EMAIL), the admin CLI and demo content. */
  accounts: {
    create(input: {
      email: string;
      password: string;
      displayName: string;
      isArtist?: boolean;
    }): Promise<{ userId: string }>;
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

/** Wires the auth repositories and services; owns no rules itself. */
export async function createAuthModule(deps: AuthModuleDeps): Promise<AuthModule> {
  const { env, database, clock, mailer, roles, log } = deps;
  const db = database.db;
  const now = () => clock.now();
  const secretKey = env.secretKey ?? resolveSecretKey(undefined, env.dataDir);

  const users = createUsersRepository(db);
  const keys = await createKeyStore({
    repo: createSigningKeysRepository(db),
    box: createSecretBox(secretKey, 'signing-keys'),
    now,
  });
  const sessions = createSessionsService({
    sessions: createSessionsRepository(db),
    users,
    roles,
    keys,
    issuer: env.publicUrl,
    clock,
  });
  const accounts = createAccountsService({ users });
  const recovery = createRecoveryService({
    users,
    tokens: createAuthTokensRepository(db),
    mailer,
    publicUrl: env.publicUrl,
    clock,
    log,
  });
  const limiter = createRateLimiter({ repo: createRateLimitsRepository(db), now });
  const cookies = createSessionCookies(env.publicUrl);

  return {
    resolvePrincipal: sessions.resolvePrincipal,
    routes: authRoutes({ accounts, sessions, recovery, limiter, cookies, keys }),
    wellKnownRoutes: wellKnownRoutes({ keys }),
    accounts: {
      create: accounts.create,
      findByEmail: accounts.findByEmail,
      setPassword: accounts.setPassword,
    },
    elevate: sessions.elevate,
    setSessionCookies: cookies.set,
    hasVerifiedFactor: users.hasVerifiedFactor,
  };
}
