import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemApi } from '../../../contracts/api/system.api.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  contractRoute(app, systemApi.health, {
    config: { access: 'public' },
    schema: { tags: ['system'] },
    handler: async () => ({ status: 'ok' as const }),
  });
};

/** `GET /api/health` answers once the app can serve (a load balancer's or nginx's check). */
export function createSystemModule(
  _ctx: ModuleContext,
  _deps: Record<string, never>,
): FeatureModule {
  return { name: 'system', plugin: healthRoutes };
}
