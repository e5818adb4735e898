import { isUuid } from '../../../core/uuid.ts';
import type { Db } from '../../db/client.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { createFollowsRepository } from './follows.repository.ts';
import { followsRoutes } from './follows.routes.ts';
import { createFollowsService } from './follows.service.ts';
import { createProfilesRepository } from './profiles.repository.ts';
import { profilesRoutes } from './profiles.routes.ts';
import { createProfilesService } from './profiles.service.ts';

/**
 * What other modules may do to profiles: every profiles row is made and written here
 * (docs/decisions/0024), a new account's included.
 */
export type ProfileRecords = {
  /** A new account's profile, in the sign-up's transaction (the auth module's). */
  create(userId: string, displayName: string, tx: Db): Promise<void>;
  /** Sets a profile's bio (the demo's artists). */
  setBio(userId: string, bio: string): Promise<void>;
  /** Points a profile at an avatar already stored at `/media/avatars/<key>` (the demo's). */
  setAvatar(userId: string, avatarUrl: string): Promise<void>;
};

/**
 * The profile records, for the host to hand to modules built before this one: auth makes an
 * account's profile in its sign-up, and this module needs notifications, which need auth.
 */
export function createProfileRecords(ctx: Pick<ModuleContext, 'database'>): ProfileRecords {
  const profiles = createProfilesRepository(ctx.database.db);
  return {
    create: (userId, displayName, tx) => profiles.create(userId, displayName, tx),
    setBio: (userId, bio) => profiles.update(userId, { bio }),
    setAvatar: async (userId, avatarUrl) => void (await profiles.replaceAvatar(userId, avatarUrl)),
  };
}

/**
 * Profiles, follows and the following list (docs/decisions/0020),
 * under /api: GET /profiles/{userId}, GET /profiles/{userId}/songs, GET|PATCH /me/profile,
 * PUT /me/profile/avatar, PUT|DELETE /follows/{userId}, GET /me/following.
 */
/** Profiles and follows; the Subsonic API stars artists through the follows it offers here. */
export type SocialModule = FeatureModule & {
  /**
   * `followerId` follows `userId`, exactly as the web's Follow (idempotent; the first follow
   * notifies them). Throws AppError validation for oneself, not found for no such user.
   */
  follow(followerId: string, userId: string): Promise<void>;
  /** Undoes a follow; idempotent. The same refusals as follow. */
  unfollow(followerId: string, userId: string): Promise<void>;
  /** What a profile's link card shows (name, bio, avatar); null for no such profile. */
  profileCard(userId: string): Promise<ProfileCard | null>;
};

/** A profile as a link to it shows it to anyone. */
export type ProfileCard = {
  displayName: string | null;
  bio: string | null;
  /** The stored `/media/…` path (avatars are public) or null. */
  avatarUrl: string | null;
  isArtist: boolean;
};

export function createSocialModule(
  ctx: ModuleContext,
  {
    notifications,
    songs,
  }: {
    notifications: Pick<NotificationsModule, 'notify'>;
    songs: Pick<SongsModule, 'songsByIds'>;
  },
): SocialModule {
  const db = ctx.database.db;
  const profileRows = createProfilesRepository(db);
  const profiles = createProfilesService({
    profiles: profileRows,
    storage: ctx.storage,
    clock: ctx.clock,
    log: ctx.log,
    songsByIds: songs.songsByIds,
  });
  const follows = createFollowsService({
    follows: createFollowsRepository(db),
    notify: (input, tx) => notifications.notify(input, tx),
  });
  const routes = [profilesRoutes({ profiles }), followsRoutes({ follows })];
  return {
    name: 'social',
    follow: async (followerId, userId) => void (await follows.follow(followerId, userId)),
    unfollow: async (followerId, userId) => void (await follows.unfollow(followerId, userId)),
    async profileCard(userId) {
      if (!isUuid(userId)) return null;
      const id = userId.toLowerCase();
      const row = await profileRows.find(id, id);
      return (
        row && {
          displayName: row.displayName,
          bio: row.bio,
          avatarUrl: row.avatarUrl,
          isArtist: row.isArtist,
        }
      );
    },
    plugin: async (app) => {
      for (const r of routes) await app.register(r, { prefix: '/api' });
    },
  };
}
