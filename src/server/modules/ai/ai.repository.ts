import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { aiGenerations } from '../../db/schema/index.ts';

export type AiRepository = ReturnType<typeof createAiRepository>;
export type GenerationRow = typeof aiGenerations.$inferSelect;

export function createAiRepository(db: Db) {
  return {
    async insert(values: {
      userId: string;
      kind: GenerationRow['kind'];
      prompt: string;
      seed: number;
      provider: GenerationRow['provider'];
      text?: string;
      imageUrl?: string;
      imageKey?: string;
      now: Date;
    }): Promise<GenerationRow> {
      const [row] = await db
        .insert(aiGenerations)
        .values({
          userId: values.userId,
          kind: values.kind,
          prompt: values.prompt,
          seed: values.seed,
          provider: values.provider,
          text: values.text ?? null,
          imageUrl: values.imageUrl ?? null,
          imageKey: values.imageKey ?? null,
          createdAt: values.now,
        })
        .returning();
      return row!;
    },

    /** The user's latest generations, newest first (ties by id, so the order is stable). */
    async recent(userId: string, limit: number): Promise<GenerationRow[]> {
      return db
        .select()
        .from(aiGenerations)
        .where(eq(aiGenerations.userId, userId))
        .orderBy(desc(aiGenerations.createdAt), desc(aiGenerations.id))
        .limit(limit);
    },
  };
}
