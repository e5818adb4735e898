import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemApi } from '../../../contracts/api/system.api.ts';
import type { Readiness } from '../../../contracts/system.contract.ts';
import type { DatabaseHealth } from '../../db/database-outage.ts';
import { contractRoute } from '../../http/contract-route.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';

/** What readiness asks: the database (a trivial query) and the job queue's worker. */
export type ReadinessChecks = {
  database: Pick<DatabaseHealth, 'check'>;
  jobs: Pick<JobQueue, 'healthy'>;
};

const healthRoutes =
  (readiness: ReadinessChecks): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, systemApi.health, {
      config: { access: 'public' },
      schema: { tags: ['system'], summary: 'Liveness: the process serves' },
      handler: async () => ({ status: 'ok' as const }),
    });
    contractRoute(app, systemApi.ready, {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers and the job queue runs (503 when not)',
      },
      handler: async (_request, reply) => {
        const database = (await readiness.database.check()) ? 'ok' : 'down';
        // The worker's last look at the queue went through the same database.
        const jobs = database === 'ok' && readiness.jobs.healthy() ? 'ok' : 'down';
        const ready = database === 'ok' && jobs === 'ok';
        const answer: Readiness = { status: ready ? 'ok' : 'unavailable', database, jobs };
        return reply.status(ready ? 200 : 503).send(answer);
      },
    });
  };

/**
 * `GET /api/health` answers while the process serves (a load balancer's or nginx's liveness
 * check); `GET /api/health/ready` whether it can do its work: 503 while the database or the
 * job queue is down.
 */
export function createSystemModule(
  _ctx: ModuleContext,
  { readiness }: { readiness: ReadinessChecks },
): FeatureModule {
  return { name: 'system', plugin: healthRoutes(readiness) };
}
