import { z } from 'zod';

/** GET /api/health: the process is up and serves (liveness; it asks nothing of the database). */
export const healthStatus = z.object({ status: z.literal('ok') });
export type HealthStatus = z.infer<typeof healthStatus>;

const partState = z.enum(['ok', 'down']);

/**
 * GET /api/health/ready: whether this process can do its work now (readiness): the database
 * answers and the job queue's worker reaches it. 200 when both are ok, 503 otherwise.
 */
export const readiness = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: partState,
  jobs: partState,
});
export type Readiness = z.infer<typeof readiness>;
