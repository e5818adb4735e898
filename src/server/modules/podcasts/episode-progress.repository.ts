import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { episodeProgress } from '../../db/schema/index.ts';
import { isSqlState } from '../../db/sql-results.ts';
import type { ProgressRow } from './episodes.repository.ts';

export type EpisodeProgressRepository = ReturnType<typeof createEpisodeProgressRepository>;

/** Where each listener is in an episode (docs/decisions/0018): one row per listener and episode. */
export function createEpisodeProgressRepository(db: Db) {
  return {
    /**
     * Records the listener's place. `completed` only ever turns on: once played, an episode
     * stays played while the position follows a second listen. Null when the episode is gone.
     */
    async save(input: {
      userId: string;
      episodeId: string;
      positionMs: number;
      completed: boolean;
      at: Date;
    }): Promise<ProgressRow | null> {
      try {
        const [row] = await db
          .insert(episodeProgress)
          .values({
            userId: input.userId,
            episodeId: input.episodeId,
            positionMs: input.positionMs,
            completed: input.completed,
            updatedAt: input.at,
          })
          .onConflictDoUpdate({
            target: [episodeProgress.userId, episodeProgress.episodeId],
            set: {
              positionMs: input.positionMs,
              completed: sql`${episodeProgress.completed} or excluded.completed`,
              updatedAt: input.at,
            },
          })
          .returning();
        return row ?? null;
      } catch (error) {
        // Deleted between the caller's read and this write.
        if (isSqlState(error, '23503')) return null;
        throw error;
      }
    },
  };
}
