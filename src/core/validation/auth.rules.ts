import { z } from 'zod';

// Spec §5 and §9: the exact messages; the first failing one is what the user sees.
export const authLimits = { passwordMin: 6, passwordMax: 72, displayNameMin: 2, displayNameMax: 50 } as const;

export const emailRule = z.string().trim().toLowerCase().pipe(z.email('Invalid email address'));

export const signInPasswordRule = z.string().min(authLimits.passwordMin, 'Password must be at least 6 characters');

export const signUpPasswordRule = signInPasswordRule.max(
  authLimits.passwordMax,
  'Password must be less than 72 characters',
);

export const displayNameRule = z
  .string()
  .trim()
  .min(authLimits.displayNameMin, 'Display name must be at least 2 characters')
  .max(authLimits.displayNameMax, 'Display name must be less than 50 characters');

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
  return r.success ? null : (r.error.issues[0]?.message ?? 'Please check your input and try again.');
}
