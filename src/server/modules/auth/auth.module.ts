import type { FastifyReply } from 'fastify';
import type { AuthSession } from '../../../contracts/auth.contract.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { RolesModule } from '../roles/roles.module.ts';
import type { ProfileRecords } from '../social/social.module.ts';
import type { Principal } from '../../http/access-policy.ts';
import { createAuthTokensRepository } from './auth-tokens.repository.ts';
import { createSessionsRepository } from './sessions.repository.ts';
import { createSigningKeysRepository } from '../../security/signing-keys.repository.ts';
import { createUsersRepository } from './users.repository.ts';
import { createAccountsService } from './accounts.service.ts';
import { authRoutes, wellKnownRoutes } from './auth.routes.ts';
import { createSessionCookies } from './session-cookies.ts';
import { createKeyStore } from '../../security/keys.ts';
import { createRecoveryService } from './recovery.service.ts';
import { createSecretBox } from '../../security/secret-box.ts';
import { createSessionsService, type AccessRow } from './sessions.service.ts';
import { createSessionAccessCache } from './session-access-cache.ts';
import { openEventChannel } from '../../events/event-channel.ts';

export type AuthModule = FeatureModule & {
  resolvePrincipal(accessToken: string): Promise<Principal | null>;
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
  /**
   * Those of these session ids whose session has not ended early (it exists, unrevoked): for
   * whatever holds sessions open after it may have missed an announcement on
   * SESSIONS_REVOKED_CHANNEL (live sockets, once their listening connection is back).
   */
  openSessionsAmong(sessionIds: string[]): Promise<string[]>;
  /** The user's factors changed: their sessions are read again on the next request. */
  factorsChanged(userId: string): void;
};

export type AuthSettings = {
  /** PUBLIC_URL: the tokens' issuer, their audience (`…/api`) and the links in mails. */
  publicUrl: string;
  /** A session ends this many days after sign-in, however often it is refreshed. */
  sessionMaxLifetimeDays: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The event channel on which the database announces the id of every session that ends
 * early — signed out, revoked for a reused refresh token, by a password reset or with its
 * account — once that commits (migration 0012's trigger, ADR 0021), so that whatever a
 * session holds open (live sockets) closes with it.
 */
export const SESSIONS_REVOKED_CHANNEL = 'sessions_revoked';

/**
 * The database announces here the user id of every write to a session or an MFA factor
 * (migration 0029's triggers), so each process drops what it holds of that user's sessions.
 */
export const SESSION_ACCESS_CHANGED_CHANNEL = 'session_access_changed';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Wires the auth repositories and services; owns no rules itself. */
export async function createAuthModule(
  ctx: ModuleContext,
  {
    roles,
    profiles,
    settings,
  }: { roles: RolesModule; profiles: Pick<ProfileRecords, 'create'>; settings: AuthSettings },
): Promise<AuthModule> {
  const { database, clock, mailer, log } = ctx;
  const db = database.db;
  const now = () => clock.now();
  const { secretKey } = ctx;

  const users = createUsersRepository(db);
  const keys = await createKeyStore({
    repo: createSigningKeysRepository(db),
    box: createSecretBox(secretKey, 'signing-keys'),
    now,
  });
  const sessionRows = createSessionsRepository(db);
  const cache = createSessionAccessCache<AccessRow>();
  const sessions = createSessionsService({
    cache,
    sessions: sessionRows,
    users,
    roles,
    keys,
    issuer: settings.publicUrl,
    // The API of this deployment; a token minted for another audience is refused here.
    audience: `${settings.publicUrl}/api`,
    maxLifetimeMs: settings.sessionMaxLifetimeDays * DAY_MS,
    clock,
  });
  const accounts = createAccountsService({ users, profiles, roles });
  const recovery = createRecoveryService({
    users,
    tokens: createAuthTokensRepository(db),
    mailer,
    publicUrl: settings.publicUrl,
    clock,
    log,
    sessionsEnded: (userId) => cache.forgetUser(userId),
  });
  const cookies = createSessionCookies(settings.publicUrl);

  const routes = authRoutes({
    accounts,
    sessions,
    recovery,
    limiter: ctx.rateLimiter,
    cookies,
    keys,
  });
  return {
    name: 'auth',
    // Sign-up/in/out, refresh, session and recovery under /api/auth; the JWKS at the root.
    plugin: async (app) => {
      // Listening starts with the routes and stops before the database closes.
      const changes = openEventChannel<string>({
        database,
        channel: SESSION_ACCESS_CHANGED_CHANNEL,
        parse: (payload) => (UUID.test(payload) ? payload : null),
        onEvent: async (userId) => cache.forgetUser(userId),
        onMissed: () => cache.clear(),
        log,
      });
      app.addHook('onClose', () => changes.close());
      await app.register(routes, { prefix: '/api/auth' });
      await app.register(wellKnownRoutes({ keys }));
    },
    resolvePrincipal: sessions.resolvePrincipal,
    accounts: {
      create: accounts.create,
      findByEmail: accounts.findByEmail,
      setPassword: accounts.setPassword,
    },
    elevate: sessions.elevate,
    setSessionCookies: cookies.set,
    hasVerifiedFactor: users.hasVerifiedFactor,
    openSessionsAmong: (sessionIds) => sessionRows.openAmong(sessionIds),
    factorsChanged: (userId) => cache.forgetUser(userId),
  };
}
