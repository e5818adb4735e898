import { z } from 'zod';
import { AI_KINDS, PROMPT_MAX, SEED_MAX, promptProblem } from '../core/validation/ai.rules.ts';

/*
 * The AI Music Creator (spec §2, §7 generate-ai-content, docs/decisions/0031): a prompt in,
 * lyrics text or a cover image's URL out, kept in the user's history.
 */

/** POST /api/ai/generate. */
export const generateBody = z.object({
  prompt: z
    .string({ error: 'Prompt required' })
    .superRefine((value, ctx) => {
      const problem = promptProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(`what to write or draw about; not blank, at most ${PROMPT_MAX} characters`),
  type: z.enum(AI_KINDS),
  seed: z
    .number()
    .int()
    .min(0)
    .max(SEED_MAX)
    .optional()
    .describe('the same prompt and seed give the same result offline; absent: a new one'),
});
export type GenerateBody = z.infer<typeof generateBody>;

/** One generation: `text` for lyrics, `imageUrl` (a /media URL, PNG or WebP) for cover art. */
export const generationDto = z.object({
  id: z.uuid(),
  type: z.enum(AI_KINDS),
  prompt: z.string(),
  seed: z.number().int(),
  text: z.string().nullable(),
  imageUrl: z.string().nullable(),
  created_at: z.string().describe('ISO timestamp'),
});
export type GenerationDto = z.infer<typeof generationDto>;

/** GET /api/ai/generations: the caller's latest, newest first. */
export const generationList = z.object({ generations: z.array(generationDto) });
export type GenerationList = z.infer<typeof generationList>;
