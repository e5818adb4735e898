import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { profiles, userRoles } from '../db/schema/index.ts';
import type { RolesRepository } from '../db/repositories/roles.repository.ts';
import { AppError, ErrorCode } from '../../core/errors.ts';
import type { ArtistRequest } from '../../contracts/admin.contract.ts';

export type ArtistApprovalService = ReturnType<typeof createArtistApprovalService>;

export function createArtistApprovalService({ db, roles }: { db: Db; roles: RolesRepository }) {
  return {
    async pending(): Promise<ArtistRequest[]> {
      const rows = await db
        .select({ userId: userRoles.userId, displayName: profiles.displayName, requestedAt: userRoles.createdAt })
        .from(userRoles)
        .leftJoin(profiles, eq(profiles.userId, userRoles.userId))
        .where(eq(userRoles.role, 'pending_artist'))
        .orderBy(asc(userRoles.createdAt));
      return rows.map((r) => ({
        user_id: r.userId,
        display_name: r.displayName,
        requested_at: new Date(r.requestedAt).toISOString(),
      }));
    },

    /** approve_artist: replaces pending_artist by artist, only for a pending request. */
    async approve(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const removed = await roles.revoke(userId, 'pending_artist', tx as unknown as Db);
        if (!removed) throw new AppError(ErrorCode.notFound, 'No pending artist request for this user');
        await roles.grant(userId, 'artist', tx as unknown as Db);
      });
    },

    async reject(userId: string): Promise<void> {
      const removed = await roles.revoke(userId, 'pending_artist');
      if (!removed) throw new AppError(ErrorCode.notFound, 'No pending artist request for this user');
    },
  };
}

