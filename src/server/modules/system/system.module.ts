import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['system'], response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );
};

/** `GET /api/health` answers once the app can serve (a load balancer's or nginx's check). */
export function createSystemModule(
  _ctx: ModuleContext,
  _deps: Record<string, never>,
): FeatureModule {
  return { name: 'system', plugin: healthRoutes };
}
