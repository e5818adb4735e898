import { z } from 'zod';

/*
 * Subsonic app passwords (docs/decisions/0034): what a phone app signs in to /rest with,
 * never the account password. The secret is shown once, in the answer that creates it.
 */

export const APP_PASSWORD_NAME_MAX = 100;

/** POST /api/me/subsonic/passwords. */
export const createAppPasswordBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name the app password')
    .max(APP_PASSWORD_NAME_MAX, `At most ${APP_PASSWORD_NAME_MAX} characters`),
});
export type CreateAppPasswordBody = z.infer<typeof createAppPasswordBody>;

export const appPasswordParams = z.object({ id: z.uuid() });

/** As listed: never the secret. */
export const appPasswordDto = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.string(),
});
export type AppPassword = z.infer<typeof appPasswordDto>;

/** As created: the secret, this once. */
export const createdAppPasswordDto = appPasswordDto.extend({ password: z.string() });
export type CreatedAppPassword = z.infer<typeof createdAppPasswordDto>;

export const appPasswordList = z.object({ items: z.array(appPasswordDto) });
