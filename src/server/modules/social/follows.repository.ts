import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, userFollows } from '../../db/schema/index.ts';
import { isSqlState, queryRows } from '../../db/sql-results.ts';
import { afterPosition, positionOf } from './keyset.repository.ts';
import type { Position } from './list-position.ts';

export type FollowsRepository = ReturnType<typeof createFollowsRepository>;

export type FollowedRow = {
  userId: string;
  displayName: string | null;
  bio: string | null;
  avatarUrl: string | null;
  followerCount: number;
  songCount: number;
  followedAt: Date;
  position: Position;
};

/** A foreign-key violation: the user went between the statement's read and its insert. */
const isMissingUser = (error: unknown): boolean => isSqlState(error, '23503');

/**
 * user_follows rows: one per (follower, followed), kept so by user_follows_pair_key under
 * races; following oneself is refused by the service and by the table's CHECK.
 */
export function createFollowsRepository(db: Db) {
  const followerCount = async (userId: string): Promise<number> => {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(userFollows)
      .where(eq(userFollows.followingId, userId));
    return row?.n ?? 0;
  };

  return {
    followerCount,

    /**
     * Follows unless already following, in one statement; `onNew` runs in the same
     * transaction only when a link was made (the new_follower notice), with the follower's
     * display name. False when the followed user does not exist (nothing written).
     */
    async follow(
      followerId: string,
      followingId: string,
      onNew: (tx: Db, followerName: string | null) => Promise<void>,
    ): Promise<boolean> {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await queryRows<{
            found: boolean;
            added: boolean;
            follower_name: string | null;
          }>(
            tx,
            sql`
            with target as (select id from users where id = ${followingId}),
            added as (
              insert into user_follows (follower_id, following_id)
              select ${followerId}, target.id from target
              on conflict (follower_id, following_id) do nothing
              returning id
            )
            select exists (select 1 from target) as found,
                   exists (select 1 from added) as added,
                   (select display_name from profiles where user_id = ${followerId}) as follower_name`,
          );
          if (row?.added) await onNew(tx, row.follower_name);
          return row?.found === true;
        });
      } catch (error) {
        if (isMissingUser(error)) return false;
        throw error;
      }
    },

    /** Idempotent. False when the user does not exist. */
    async unfollow(followerId: string, followingId: string): Promise<boolean> {
      const [row] = await queryRows<{ found: boolean }>(
        db,
        sql`
        with gone as (
          delete from user_follows
          where follower_id = ${followerId} and following_id = ${followingId}
        )
        select exists (select 1 from users where id = ${followingId}) as found`,
      );
      return row?.found === true;
    },

    async isFollowing(followerId: string, followingId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: userFollows.id })
        .from(userFollows)
        .where(
          and(eq(userFollows.followerId, followerId), eq(userFollows.followingId, followingId)),
        )
        .limit(1);
      return row !== undefined;
    },

    /** How many users `followerId` follows (user_follows_pair_key's leading column). */
    async followingCount(followerId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(userFollows)
        .where(eq(userFollows.followerId, followerId));
      return row?.n ?? 0;
    },

    /**
     * Who `followerId` follows, newest follow first, a page after `after` (one more row than
     * `limit` tells the caller another page exists), each with their follower and song
     * counts.
     */
    async following(
      followerId: string,
      limit: number,
      after: Position | null,
    ): Promise<FollowedRow[]> {
      const rows = await db
        .select({
          userId: userFollows.followingId,
          displayName: profiles.displayName,
          bio: profiles.bio,
          avatarUrl: profiles.avatarUrl,
          followerCount: sql<number>`(select count(*) from user_follows c
            where c.following_id = ${userFollows.followingId})`.mapWith(Number),
          songCount: sql<number>`(select count(*) from songs s
            where s.artist_id = ${userFollows.followingId})`.mapWith(Number),
          followedAt: userFollows.createdAt,
          micros: positionOf(userFollows.createdAt),
          id: userFollows.id,
        })
        .from(userFollows)
        .leftJoin(profiles, eq(profiles.userId, userFollows.followingId))
        .where(
          and(
            eq(userFollows.followerId, followerId),
            after ? afterPosition(userFollows.createdAt, userFollows.id, after) : undefined,
          ),
        )
        .orderBy(desc(userFollows.createdAt), desc(userFollows.id))
        .limit(limit + 1);
      return rows.map(({ micros, id, ...r }) => ({ ...r, position: { micros, id } }));
    },
  };
}
