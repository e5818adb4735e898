import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemApi } from '../../../contracts/api/system.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { FeatureModule } from '../../module-context.ts';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  contractRoute(app, systemApi.health, {
    config: { access: 'public' },
    schema: { tags: ['system'] },
    handler: async () => ({ status: 'ok' as const }),
  });
};

/** `GET /api/health` answers once the app can serve (product.md §10). */
export function createSystemModule(): FeatureModule {
  return { name: 'system', plugin: healthRoutes };
}
