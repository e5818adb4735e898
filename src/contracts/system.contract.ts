import { z } from 'zod';

/** GET /api/health: the app can serve. */
export const healthStatus = z.object({ status: z.literal('ok') });
export type HealthStatus = z.infer<typeof healthStatus>;
