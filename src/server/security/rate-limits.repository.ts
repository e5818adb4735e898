import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';

export type RateLimitsRepository = ReturnType<typeof createRateLimitsRepository>;

/** Fixed-window counters in the database, so every app process shares them. */
export function createRateLimitsRepository(db: Db) {
  return {
    /**
     * Counts one hit for `key` and returns the window's count and start. A window that
     * started at or before `windowCutoff` is over: the count restarts at 1 from `now`.
     */
    async hit(
      key: string,
      now: Date,
      windowCutoff: Date,
    ): Promise<{ hits: number; windowStart: Date }> {
      const nowSql = sql`${now.toISOString()}::timestamptz`;
      const expired = sql`${rateLimits.windowStart} <= ${windowCutoff.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(rateLimits)
        .values({ key, windowStart: now, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          // Both CASEs read the row as it was before this update.
          set: {
            hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
            windowStart: sql`case when ${expired} then ${nowSql} else ${rateLimits.windowStart} end`,
          },
        })
        .returning({ hits: rateLimits.hits, windowStart: rateLimits.windowStart });
      return row!;
    },
  };
}
