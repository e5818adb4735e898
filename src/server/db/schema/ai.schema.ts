import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { createdAt, lengthBetween } from './columns.ts';

// The AI Music Creator's history (docs/decisions/0031): each user's generations, lyrics as
// text, cover art as a stored PNG in the cover-art bucket.
export const aiGenerations = pgTable(
  'ai_generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['lyrics', 'cover-art'] }).notNull(),
    prompt: text('prompt').notNull(),
    seed: integer('seed').notNull(),
    /** Which provider answered: 'local' or 'openai'. */
    provider: text('provider', { enum: ['local', 'openai'] }).notNull(),
    text: text('text'),
    /** `/media/cover-art/<key>`; the media reconciler keeps the file while the row names it. */
    imageUrl: text('image_url'),
    imageKey: text('image_key'),
    createdAt: createdAt(),
  },
  (t) => [
    lengthBetween('ai_generations_prompt_len', t.prompt, 1, 1000),
    check('ai_generations_seed_range', sql`${t.seed} >= 0`),
    check(
      'ai_generations_result',
      sql`(${t.kind} = 'lyrics' and ${t.text} is not null and ${t.imageUrl} is null) or (${t.kind} = 'cover-art' and ${t.imageUrl} is not null and ${t.text} is null)`,
    ),
    index('ai_generations_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
  ],
);
