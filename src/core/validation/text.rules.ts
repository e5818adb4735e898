import { z } from 'zod';
import { cleanLine, hasNul, textMessages } from './text.check.ts';

export { textMessages };

/**
 * A line of user text (text.check.ts): a NUL is refused with its own message before any
 * other rule runs; direction controls are stripped and the ends trimmed before the length
 * rules that follow see it. `missing` is the message when the field is absent or not text
 * (a required title's 'Title is required'); zod's generic one otherwise.
 */
export const textLine = (missing?: string) =>
  z
    .string(missing === undefined ? undefined : { error: missing })
    .refine((text) => !hasNul(text), { message: textMessages.nul, abort: true })
    .overwrite(cleanLine);
