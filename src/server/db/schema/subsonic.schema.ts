import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { createdAt, lengthBetween } from './columns.ts';

// Subsonic app passwords (docs/decisions/0034): a phone app signs in with one of these, never
// with the account password. The secret is sealed with the app's key (token auth needs the
// plain secret to compute md5(secret + salt)); a revoked row is deleted.
export const subsonicAppPasswords = pgTable(
  'subsonic_app_passwords',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sealedSecret: text('sealed_secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    lengthBetween('subsonic_app_passwords_name_len', t.name, 1, 100),
    index('subsonic_app_passwords_user_idx').on(t.userId, t.createdAt),
  ],
);
