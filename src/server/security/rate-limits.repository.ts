import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';

export type RateLimitsRepository = ReturnType<typeof createRateLimitsRepository>;

/** Fixed-window counters in the database, so every app process shares them. */
export function createRateLimitsRepository(db: Db) {
  const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  return {
    /** The current rows of `keys` (absent keys have none); reads only. */
    async read(keys: string[]): Promise<Array<{ key: string; hits: number; windowStart: Date }>> {
      if (keys.length === 0) return [];
      return db
        .select({ key: rateLimits.key, hits: rateLimits.hits, windowStart: rateLimits.windowStart })
        .from(rateLimits)
        .where(inArray(rateLimits.key, keys));
    },

    /**
     * Counts one hit for `key` and returns the window's count and start. A window that
     * started at or before `windowCutoff` is over: the count restarts at 1 from `now`.
     */
    async hit(
      key: string,
      now: Date,
      windowCutoff: Date,
    ): Promise<{ hits: number; windowStart: Date }> {
      const expired = sql`${rateLimits.windowStart} <= ${ts(windowCutoff)}`;
      const [row] = await db
        .insert(rateLimits)
        .values({ key, windowStart: now, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          // Both CASEs read the row as it was before this update.
          set: {
            hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
            windowStart: sql`case when ${expired} then ${ts(now)} else ${rateLimits.windowStart} end`,
          },
        })
        .returning({ hits: rateLimits.hits, windowStart: rateLimits.windowStart });
      return row!;
    },

    async delete(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },

    /**
     * Deletes up to `limit` rows whose window is over: a key starting with one of the
     * `prefixes` when its window began at or before that prefix's cutoff, any other key at or
     * before `otherCutoff`. Returns how many went.
     */
    async deleteExpired(input: {
      prefixes: Array<{ prefix: string; cutoff: Date }>;
      otherCutoff: Date;
      limit: number;
    }): Promise<number> {
      const known = input.prefixes.map(
        ({ prefix, cutoff }) =>
          sql`(starts_with(${rateLimits.key}, ${prefix}) and ${rateLimits.windowStart} <= ${ts(cutoff)})`,
      );
      const anyPrefix = input.prefixes.map(
        ({ prefix }) => sql`starts_with(${rateLimits.key}, ${prefix})`,
      );
      const other: SQL = anyPrefix.length
        ? sql`(not (${sql.join(anyPrefix, sql` or `)}) and ${rateLimits.windowStart} <= ${ts(input.otherCutoff)})`
        : sql`${rateLimits.windowStart} <= ${ts(input.otherCutoff)}`;
      const expired = sql.join([...known, other], sql` or `);
      const deleted = await db
        .delete(rateLimits)
        .where(
          inArray(
            rateLimits.key,
            db.select({ key: rateLimits.key }).from(rateLimits).where(expired).limit(input.limit),
          ),
        )
        .returning({ key: rateLimits.key });
      return deleted.length;
    },
  };
}
