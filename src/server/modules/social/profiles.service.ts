import { Readable } from 'node:stream';
import {
  AVATAR_FIELD,
  type PageQuery,
  type ProfileDto,
  type ProfileSongs,
  type UpdateProfileBody,
} from '../../../contracts/social.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import {
  profileLimits,
  profileMessages,
  storedProfileText,
} from '../../../core/validation/profile.rules.ts';
import { processImage } from '../../media/media-intake.ts';
import type { IncomingUpload } from '../../media/upload-form.ts';
import {
  isValidKey,
  MEDIA_TYPES,
  ownedKey,
  storedLocation,
  type Bucket,
  type Storage,
} from '../../storage/storage.ts';
import { discardStored } from '../../storage/stored-objects.ts';
import { decodeCursor, pageOf } from './list-position.ts';
import type { avatarForm } from './profiles.forms.ts';
import type { ProfileRow, ProfilesRepository } from './profiles.repository.ts';
import type { Log } from '../../log.ts';

export type ProfilesService = ReturnType<typeof createProfilesService>;

export type ProfilesServiceDeps = {
  profiles: ProfilesRepository;
  storage: Storage;
  clock: Clock;
  log: Log;
  /** The songs module's DTOs (signed URLs), in the order asked. */
  songsByIds: (ids: string[]) => Promise<SongDto[]>;
};

/** Avatars live beside song covers (spec §7 Storage: the cover-art bucket), public like them. */
const AVATAR_BUCKET = 'cover-art' as const;

export function toProfileDto(row: ProfileRow, viewerId: string): ProfileDto {
  const own = row.userId === viewerId;
  return {
    user_id: row.userId,
    display_name: row.displayName,
    bio: row.bio,
    // The cover-art bucket is public: a stored `/media/…` path is the URL clients fetch.
    avatar_url: row.avatarUrl,
    follower_count: row.followerCount,
    following_count: row.followingCount,
    is_following: !own && row.isFollowing,
    is_own: own,
    is_artist: row.isArtist,
    song_count: row.songCount,
    total_plays: row.totalPlays,
    member_since: row.memberSince.toISOString(),
  };
}

const notFound = () => new AppError(ErrorCode.notFound, profileMessages.notFound);

/** Profiles (spec §2 Profile, §4 profile edit, §5 profile rules). */
export function createProfilesService(deps: ProfilesServiceDeps) {
  const { profiles, storage, log } = deps;

  async function get(viewerId: string, userId: string): Promise<ProfileDto> {
    const row = await profiles.find(viewerId, userId);
    if (!row) throw notFound();
    return toProfileDto(row, viewerId);
  }

  /** The bucket and key of a stored avatar URL; null for anything else (an external URL). */
  function storedAvatar(url: string | null): [Bucket, string] | null {
    const location = storedLocation(url);
    return location && isValidKey(location.key) ? [location.bucket, location.key] : null;
  }

  /** `{userId}/{timestamp}.webp` (spec §7 Storage), a millisecond on if that one exists already. */
  async function avatarKey(userId: string): Promise<string> {
    for (let at = deps.clock.now().getTime(); ; at++) {
      const key = ownedKey(userId, at, 'webp');
      if (!(await storage.exists(AVATAR_BUCKET, key))) return key;
    }
  }

  return {
    get,

    async update(userId: string, body: UpdateProfileBody): Promise<ProfileDto> {
      const change: { displayName?: string | null; bio?: string | null } = {};
      if (body.display_name !== undefined)
        change.displayName = storedProfileText(body.display_name);
      if (body.bio !== undefined) change.bio = storedProfileText(body.bio);
      await profiles.update(userId, change);
      return get(userId, userId);
    },

    /**
     * A new avatar: every part is read first (a stray part refuses the whole request,
     * profiles.forms.ts), the image is decoded and re-encoded as WebP, stored under a fresh
     * key, then the row points at it; the previous file is deleted once that has committed.
     * Anything refused stores nothing.
     */
    async replaceAvatar(
      userId: string,
      upload: IncomingUpload<typeof avatarForm>,
    ): Promise<ProfileDto> {
      const { files } = await upload.read();
      const input = await processImage(files[AVATAR_FIELD]);
      const key = await avatarKey(userId);
      await storage.put(AVATAR_BUCKET, key, Readable.from([input]), {
        contentType: MEDIA_TYPES.webp,
        maxBytes: profileLimits.avatarMaxBytes * 4,
      });
      let previous: string | null;
      try {
        ({ previous } = await profiles.replaceAvatar(userId, `/media/${AVATAR_BUCKET}/${key}`));
      } catch (error) {
        await discardStored(storage, log, [[AVATAR_BUCKET, key]]);
        throw error;
      }
      const old = storedAvatar(previous);
      if (old) await discardStored(storage, log, [old]);
      return get(userId, userId);
    },

    /** Their uploaded songs, newest first, a page at a time; 404 when there is no profile. */
    async songs(userId: string, page: PageQuery): Promise<ProfileSongs> {
      const rows = await profiles.songIds(userId, page.limit, decodeCursor(page.cursor));
      // An empty first page may be a user with no songs or no user at all.
      if (rows.length === 0 && !page.cursor && !(await profiles.exists(userId))) throw notFound();
      const { rows: pageRows, nextCursor } = pageOf(rows, page.limit);
      return {
        // A song deleted between the two reads is left out.
        songs: await deps.songsByIds(pageRows.map((r) => r.id)),
        next_cursor: nextCursor,
      };
    },
  };
}
