import type { ArtistRequestsRepository } from './artist-requests.repository.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { ArtistRequest } from '../../../contracts/admin.contract.ts';

export type ArtistApprovalService = ReturnType<typeof createArtistApprovalService>;

const noRequest = () => new AppError(ErrorCode.notFound, 'No pending artist request for this user');

export function createArtistApprovalService({ requests }: { requests: ArtistRequestsRepository }) {
  return {
    async pending(): Promise<ArtistRequest[]> {
      const rows = await requests.pending();
      return rows.map((r) => ({
        user_id: r.userId,
        display_name: r.displayName,
        requested_at: new Date(r.requestedAt).toISOString(),
      }));
    },

    /** approve_artist: replaces pending_artist by artist and tells the user (product.md §2). */
    async approve(userId: string): Promise<void> {
      const ok = await requests.approve(userId, {
        title: 'Artist request approved',
        message: 'You can now upload music and podcasts.',
        link: '/upload',
      });
      if (!ok) throw noRequest();
    },

    async reject(userId: string): Promise<void> {
      const ok = await requests.reject(userId, {
        title: 'Artist request declined',
        message: 'An admin declined your artist request. You can keep listening as before.',
        link: null,
      });
      if (!ok) throw noRequest();
    },
  };
}
