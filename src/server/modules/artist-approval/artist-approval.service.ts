import type { ArtistRequestsRepository } from './artist-requests.repository.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import type { ArtistRequest } from '../../../contracts/admin.contract.ts';
import { notificationNotices } from '../../../core/validation/notification.rules.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { RolesModule } from '../roles/roles.module.ts';

export type ArtistApprovalService = ReturnType<typeof createArtistApprovalService>;

const noRequest = () => new AppError(ErrorCode.notFound, 'No pending artist request for this user');

export function createArtistApprovalService({
  requests,
  roles,
  notifications,
}: {
  requests: ArtistRequestsRepository;
  roles: Pick<RolesModule, 'grant' | 'revoke'>;
  notifications: Pick<NotificationsModule, 'notify'>;
}) {
  return {
    async pending(): Promise<ArtistRequest[]> {
      const rows = await requests.pending();
      return rows.map((r) => ({
        user_id: r.userId,
        display_name: r.displayName,
        requested_at: new Date(r.requestedAt).toISOString(),
      }));
    },

    /**
     * approve_artist: replaces pending_artist by artist and tells the user, in one
     * transaction: the notice exists, and is pushed live, only if the role changed.
     */
    async approve(userId: string): Promise<void> {
      const ok = await requests.decide(async (tx) => {
        if (!(await roles.revoke(userId, 'pending_artist', tx))) return false;
        await roles.grant(userId, 'artist', tx);
        await notifications.notify(
          { userId, type: 'artist_approved', ...notificationNotices.artistApproved() },
          tx,
        );
        return true;
      });
      if (!ok) throw noRequest();
    },

    /** Deletes pending_artist (spec §4) and tells the user, in one transaction. */
    async reject(userId: string): Promise<void> {
      const ok = await requests.decide(async (tx) => {
        if (!(await roles.revoke(userId, 'pending_artist', tx))) return false;
        await notifications.notify(
          { userId, type: 'artist_rejected', ...notificationNotices.artistRejected() },
          tx,
        );
        return true;
      });
      if (!ok) throw noRequest();
    },
  };
}
