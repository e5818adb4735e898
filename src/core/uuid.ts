/**
 * A UUID's text form, 8-4-4-4-12 lower-case hex digits as PostgreSQL prints it: for patterns
 * that embed one (a cursor, a showing token, a storage key). No anchors, no flags.
 */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const anyCase = new RegExp(`^${UUID_PATTERN}$`, 'i');
const lowerCase = new RegExp(`^${UUID_PATTERN}$`);

/**
 * Whether `value` is a UUID. `any-case` (the default) accepts upper-case digits too, as
 * PostgreSQL's uuid input does: for ids a client sends. `lower-case` accepts only the form
 * ids come back from the database in: for values that become part of a storage key.
 */
export function isUuid(value: string, letters: 'any-case' | 'lower-case' = 'any-case'): boolean {
  return (letters === 'any-case' ? anyCase : lowerCase).test(value);
}
