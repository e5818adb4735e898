import { z } from 'zod';
import { authLimits, authMessages } from './auth.check.ts';
import { visibleLength } from './text.check.ts';
import { textLine } from './text.rules.ts';

// Spec §5 and §9: the exact messages (auth.check.ts); the first failing one is what the user sees.
export { authLimits };

export const emailRule = z.string().trim().toLowerCase().pipe(z.email(authMessages.email));

export const signInPasswordRule = z.string().min(authLimits.passwordMin, authMessages.passwordMin);

export const signUpPasswordRule = signInPasswordRule.max(
  authLimits.passwordMax,
  authMessages.passwordMax,
);

/** Trimmed 2..50 (spec §5), no NUL or direction controls, and at least 2 characters that show. */
export const displayNameRule = textLine()
  .min(authLimits.displayNameMin, authMessages.displayNameMin)
  .max(authLimits.displayNameMax, authMessages.displayNameMax)
  .refine((name) => visibleLength(name) >= authLimits.displayNameMin, authMessages.displayNameMin);

export const signInRules = z.object({ email: emailRule, password: signInPasswordRule });

// Spec §5 order: email, password, then display name — the first failure is shown.
export const signUpRules = z.object({
  email: emailRule,
  password: signUpPasswordRule,
  display_name: displayNameRule,
  is_artist: z.boolean().default(false),
});

/** The first failing message, as the 'Validation Error' toast shows it; null when valid. */
export function firstError(schema: z.ZodType, value: unknown): string | null {
  const r = schema.safeParse(value);
  return r.success
    ? null
    : (r.error.issues[0]?.message ?? 'Please check your input and try again.');
}
