import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import { artistApprovalRoutes } from './artist-approval.routes.ts';
import { createArtistApprovalService } from './artist-approval.service.ts';
import { createArtistRequestsRepository } from './artist-requests.repository.ts';

/** Admins approve or reject artist requests (spec §2 roles), mounted at /api/admin. */
export function createArtistApprovalModule(ctx: ModuleContext): FeatureModule {
  const approvals = createArtistApprovalService({
    requests: createArtistRequestsRepository(ctx.database.db),
  });
  const routes = artistApprovalRoutes({ approvals });
  return {
    name: 'artist-approval',
    plugin: async (app) => void (await app.register(routes, { prefix: '/api/admin' })),
  };
}
