import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { NotificationsModule } from '../notifications/notifications.module.ts';
import type { RolesModule } from '../roles/roles.module.ts';
import { artistApprovalRoutes } from './artist-approval.routes.ts';
import { createArtistApprovalService } from './artist-approval.service.ts';
import { createArtistRequestsRepository } from './artist-requests.repository.ts';

/** Admins approve or reject artist requests (spec §2 roles), mounted at /api/admin. */
export function createArtistApprovalModule(
  ctx: ModuleContext,
  {
    roles,
    notifications,
  }: {
    roles: Pick<RolesModule, 'grant' | 'revoke'>;
    notifications: Pick<NotificationsModule, 'notify'>;
  },
): FeatureModule {
  const approvals = createArtistApprovalService({
    requests: createArtistRequestsRepository(ctx.database.db),
    roles,
    notifications,
  });
  const routes = artistApprovalRoutes({ approvals });
  return {
    name: 'artist-approval',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api/admin' })),
  };
}
