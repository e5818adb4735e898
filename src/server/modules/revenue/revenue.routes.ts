import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { revenueApi } from '../../../contracts/api/revenue.api.ts';
import { requirePrincipal } from '../../http/access-policy.ts';
import { contractRoute } from '../../http/contract-route.ts';
import { runResult, type RevenueService } from './revenue.service.ts';

// Artists read only their own months (the caller's id, never one from the request); the run
// is admins' only.
export const revenueRoutes =
  ({ revenue }: { revenue: RevenueService }): FastifyPluginAsyncZod =>
  async (app) => {
    contractRoute(app, revenueApi.months, {
      config: { access: 'artist' },
      schema: {
        tags: ['revenue'],
        summary: "The caller's revenue by month, newest first (cents)",
      },
      handler: async (request) => revenue.months(requirePrincipal(request).userId),
    });

    contractRoute(app, revenueApi.statement, {
      config: { access: 'artist' },
      schema: {
        tags: ['revenue'],
        summary: "The caller's statement of a month or a year as CSV: a line per month, a total",
      },
      handler: async (request, reply) => {
        const { filename, csv } = await revenue.statement(
          requirePrincipal(request).userId,
          request.query,
        );
        return reply
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'private, no-store')
          .type('text/csv; charset=utf-8')
          .send(csv);
      },
    });

    contractRoute(app, revenueApi.calculate, {
      config: { access: 'admin' },
      schema: {
        tags: ['revenue'],
        summary:
          "calculate-revenue: the current UTC month's revenue, replacing its rows; 409 while a run of it is going",
      },
      handler: async (request) =>
        runResult(await revenue.calculateCurrent(requirePrincipal(request).userId)),
    });

    contractRoute(app, revenueApi.last, {
      config: { access: 'admin' },
      schema: { tags: ['revenue'], summary: 'The newest revenue run, or null' },
      handler: async () => {
        const run = await revenue.lastRun();
        return { run: run ? runResult(run) : null };
      },
    });
  };
