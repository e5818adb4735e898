import type { RolesRepository } from '../db/repositories/roles.repository.ts';
import { AppError, ErrorCode } from '../../core/errors.ts';
import type { ArtistRequest } from '../../contracts/admin.contract.ts';

export type ArtistApprovalService = ReturnType<typeof createArtistApprovalService>;

const noRequest = () => new AppError(ErrorCode.notFound, 'No pending artist request for this user');

export function createArtistApprovalService({ roles }: { roles: RolesRepository }) {
  return {
    async pending(): Promise<ArtistRequest[]> {
      const rows = await roles.pendingArtists();
      return rows.map((r) => ({
        user_id: r.userId,
        display_name: r.displayName,
        requested_at: new Date(r.requestedAt).toISOString(),
      }));
    },

    /** approve_artist: replaces pending_artist by artist, only for a pending request. */
    async approve(userId: string): Promise<void> {
      if (!(await roles.replace(userId, 'pending_artist', 'artist'))) throw noRequest();
    },

    /** Reject deletes the pending_artist row (spec §4). */
    async reject(userId: string): Promise<void> {
      if (!(await roles.revoke(userId, 'pending_artist'))) throw noRequest();
    },
  };
}
