import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { openEventChannel } from '../../events/event-channel.ts';
import { createSecretBox } from '../../security/secret-box.ts';
import { isUuid } from '../../../core/uuid.ts';
import { createSubsonicCredentialCache } from './subsonic-credential-cache.ts';
import { createSubsonicAuthService } from './subsonic-auth.service.ts';
import { createBrowseMethods } from './subsonic-browse.ts';
import { createSubsonicBrowseRepository } from './subsonic-browse.repository.ts';
import { OPEN_SUBSONIC_EXTENSIONS, createSystemMethods } from './subsonic-system.methods.ts';
import { createSubsonicPasswordsRepository } from './subsonic-passwords.repository.ts';
import { subsonicPasswordsRoutes } from './subsonic-passwords.routes.ts';
import { subsonicRestRoutes } from './subsonic-rest.routes.ts';
import type { SubsonicMethods } from './subsonic-method.ts';
import type { SubsonicDeps } from './subsonic-deps.ts';
import { createMediaMethods } from './subsonic-media.methods.ts';
import { createPlaylistMethods } from './subsonic-playlists.methods.ts';
import { createPodcastMethods } from './subsonic-podcasts.methods.ts';
import { createUserStateMethods } from './subsonic-user-state.methods.ts';

export type { SubsonicDeps } from './subsonic-deps.ts';
export type {
  SubsonicCaller,
  SubsonicHandler,
  SubsonicMethods,
  SubsonicParams,
} from './subsonic-method.ts';
export type SubsonicModule = FeatureModule;

/**
 * The database announces here the user id of every write to a user's app passwords, roles or
 * email (migration triggers), so each process drops the credentials it holds for them.
 */
export const SUBSONIC_CREDENTIALS_CHANNEL = 'subsonic_credentials_changed';

/**
 * The OpenSubsonic API (docs/decisions/0034): /rest/{method} for phone and desktop apps,
 * signed in with per-user app passwords, and /api/me/subsonic/passwords where users manage
 * them. Each endpoint file (system, browse, media, user state, playlists, podcasts) gives a
 * method map; they merge into one (a name defined twice fails at start-up).
 */
export function createSubsonicModule(ctx: ModuleContext, deps: SubsonicDeps): SubsonicModule {
  const repo = createSubsonicPasswordsRepository(ctx.database.db);
  const credentials = createSubsonicCredentialCache();
  const auth = createSubsonicAuthService({
    cache: credentials,
    nowMs: () => ctx.clock.now().getTime(),
    repo,
    box: createSecretBox(ctx.secretKey, 'subsonic-app-passwords'),
    limiter: ctx.rateLimiter,
    rolesOf: (userId) => deps.roles.rolesOf(userId),
    log: ctx.log,
  });
  const methods = mergeMethods(
    {
      ...createSystemMethods({ repo, rolesOf: (userId) => deps.roles.rolesOf(userId) }),
      getOpenSubsonicExtensions: async () => ({ openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS }),
    },
    createBrowseMethods({ browse: createSubsonicBrowseRepository(ctx.database.db) }),
    createMediaMethods(ctx, deps),
    createUserStateMethods(ctx, deps),
    createPlaylistMethods(ctx, deps),
    createPodcastMethods(ctx, deps),
  );
  return {
    name: 'subsonic',
    plugin: async (app) => {
      // Listening starts with the routes and stops before the database closes.
      const changes = openEventChannel<string>({
        database: ctx.database,
        channel: SUBSONIC_CREDENTIALS_CHANNEL,
        parse: (payload) => (isUuid(payload) ? payload.toLowerCase() : null),
        onEvent: async (userId) => credentials.forgetUser(userId),
        onMissed: () => credentials.clear(),
        log: ctx.log,
      });
      app.addHook('onClose', () => changes.close());
      await app.register(subsonicPasswordsRoutes({ auth }), { prefix: '/api' });
      await app.register(
        subsonicRestRoutes({ methods, auth, serverVersion: deps.settings.serverVersion }),
      );
    },
  };
}

/** One map from many; a name two maps define is a wiring mistake, refused at start-up. */
export function mergeMethods(...maps: SubsonicMethods[]): SubsonicMethods {
  const merged: SubsonicMethods = {};
  for (const map of maps)
    for (const [name, handler] of Object.entries(map)) {
      if (Object.hasOwn(merged, name)) throw new Error(`Subsonic method defined twice: ${name}`);
      merged[name] = handler;
    }
  return merged;
}
