import type { FollowingList, FollowState, PageQuery } from '../../../contracts/social.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { newFollowerMessage, profileMessages } from '../../../core/validation/profile.rules.ts';
import type { Db } from '../../db/client.ts';
import type { NotificationInput } from '../notifications/notifications.module.ts';
import type { FollowsRepository } from './follows.repository.ts';
import { decodeCursor, pageOf } from './list-position.ts';

export type FollowsService = ReturnType<typeof createFollowsService>;

export type FollowsServiceDeps = {
  follows: FollowsRepository;
  /** The notifications module's notify, run inside the follow's transaction. */
  notify: (input: NotificationInput, tx?: Db) => Promise<void>;
};

const notFound = () => new AppError(ErrorCode.notFound, profileMessages.notFound);

/** Spec §5: follow/unfollow is not available on one's own profile; the API refuses it too. */
function refuseSelf(followerId: string, userId: string) {
  if (followerId === userId)
    throw new AppError(ErrorCode.validation, profileMessages.selfFollow, {
      field: 'userId',
      reason: 'self_follow',
    });
}

/** Follows (spec §4 Follow, §7 user_follows) and the following list (spec §2 Following). */
export function createFollowsService({ follows, notify }: FollowsServiceDeps) {
  const stateOf = async (followerId: string, userId: string): Promise<FollowState> => {
    const [isFollowing, followerCount] = await Promise.all([
      follows.isFollowing(followerId, userId),
      follows.followerCount(userId),
    ]);
    return { is_following: isFollowing, follower_count: followerCount };
  };

  return {
    /**
     * Idempotent: following again changes nothing and notifies no one. The first follow
     * notifies the followed user (new_follower, docs/decisions/0020) in the same transaction, so
     * there is never a follow without its notice, nor a notice without its follow.
     */
    async follow(followerId: string, userId: string): Promise<FollowState> {
      refuseSelf(followerId, userId);
      const found = await follows.follow(followerId, userId, (tx, followerName) =>
        notify(
          {
            userId,
            type: 'new_follower',
            title: profileMessages.newFollowerTitle,
            message: newFollowerMessage(followerName),
            link: `/profile/${followerId}`,
          },
          tx,
        ),
      );
      if (!found) throw notFound();
      return stateOf(followerId, userId);
    },

    /** Idempotent: unfollowing someone not followed changes nothing. */
    async unfollow(followerId: string, userId: string): Promise<FollowState> {
      refuseSelf(followerId, userId);
      if (!(await follows.unfollow(followerId, userId))) throw notFound();
      return stateOf(followerId, userId);
    },

    async following(followerId: string, page: PageQuery): Promise<FollowingList> {
      const [rows, total] = await Promise.all([
        follows.following(followerId, page.limit, decodeCursor(page.cursor)),
        follows.followingCount(followerId),
      ]);
      const { rows: items, nextCursor } = pageOf(rows, page.limit);
      return {
        total,
        items: items.map((r) => ({
          user_id: r.userId,
          display_name: r.displayName,
          bio: r.bio,
          avatar_url: r.avatarUrl,
          follower_count: r.followerCount,
          song_count: r.songCount,
          followed_at: r.followedAt.toISOString(),
        })),
        next_cursor: nextCursor,
      };
    },
  };
}
