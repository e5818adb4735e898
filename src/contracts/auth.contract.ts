import { z } from 'zod';
import { signInRules, signUpRules } from '../core/validation/auth.rules.ts';

export const roleSchema = z.enum(['artist', 'admin', 'pending_artist']);
export type Role = z.infer<typeof roleSchema>;

export const signInBody = signInRules;
export const signUpBody = signUpRules;
export type SignInBody = z.input<typeof signInBody>;
export type SignUpBody = z.input<typeof signUpBody>;

export const sessionUser = z.object({
  id: z.uuid(),
  email: z.string(),
  display_name: z.string().nullable(),
  email_verified: z.boolean(),
  roles: z.array(roleSchema),
});
export type SessionUser = z.infer<typeof sessionUser>;

/** False in the account's first session (the one sign-up opened): a welcome, not a welcome back. */
const returning = z
  .boolean()
  .describe('false in the first session of the account (the one sign-up opened)');

/** Spec §3 "Auth session": tokens are also set as httpOnly cookies for the web app. */
export const authSession = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_at: z.number().int().describe('seconds since epoch'),
  aal: z.enum(['aal1', 'aal2']),
  /** The level the user could reach (aal2 when a verified factor exists). */
  next_aal: z.enum(['aal1', 'aal2']),
  returning: returning,
  user: sessionUser,
});
export type AuthSession = z.infer<typeof authSession>;

export const sessionInfo = z.object({
  user: sessionUser,
  aal: z.enum(['aal1', 'aal2']),
  next_aal: z.enum(['aal1', 'aal2']),
  returning: returning,
  expires_at: z.number().int(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/** Refresh tokens are short opaque strings; the bound keeps a 10 kB value from reaching a lookup. */
const refreshToken = z.string().min(1).max(512);
export const refreshBody = z.object({ refresh_token: refreshToken.optional() });

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const signOutBody = z.object({ refresh_token: refreshToken.optional() });

/** Password reset: the answer never tells whether the email exists (no account probing). */
export const recoverBody = z.object({ email: signInRules.shape.email });
export const recoverResult = z.object({ message: z.string() });
export const resetPasswordBody = z.object({
  token: z.string().min(1).max(200),
  password: signUpRules.shape.password,
});
export const verifyEmailBody = z.object({ token: z.string().min(1).max(200) });
export type RecoverBody = z.input<typeof recoverBody>;
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

/** Public signing keys of access tokens (RFC 7517). */
export const jwksDocument = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
