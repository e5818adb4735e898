import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const roleEnum = pgEnum('app_role', ['artist', 'admin', 'pending_artist']);
export const aalEnum = pgEnum('aal_level', ['aal1', 'aal2']);
export const factorTypeEnum = pgEnum('factor_type', ['totp', 'webauthn', 'phone']);
export const factorStatusEnum = pgEnum('factor_status', ['unverified', 'verified']);
export const authTokenKindEnum = pgEnum('auth_token_kind', [
  'email_verification',
  'password_reset',
]);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Stored lower-cased and trimmed; unique on the value itself.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('profiles_user_id_key').on(t.userId),
    check('profiles_display_name_len', sql`char_length(${t.displayName}) <= 50`),
    check('profiles_bio_len', sql`char_length(${t.bio}) <= 500`),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: roleEnum('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    index('user_roles_role_idx').on(t.role, t.createdAt),
  ],
);

/** A session is a refresh-token family: one sign-in, many rotations, revoked as a whole. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aal: aalEnum('aal').notNull().default('aal1'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    // SHA-256 of the opaque token; the token itself is never stored.
    tokenHash: text('token_hash').notNull(),
    parentId: uuid('parent_id'),
    createdAt: createdAt(),
    // Set when this token was exchanged; presenting it again is reuse.
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_session_idx').on(t.sessionId),
  ],
);

export const mfaFactors = pgTable(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: factorTypeEnum('factor_type').notNull(),
    status: factorStatusEnum('status').notNull().default('unverified'),
    friendlyName: text('friendly_name'),
    // TOTP secret, encrypted with SECRET_KEY (AES-256-GCM).
    secretEncrypted: text('secret_encrypted'),
    lastUsedStep: integer('last_used_step'),
    // WebAuthn credential.
    credentialId: text('credential_id'),
    publicKey: bytea('public_key'),
    signCount: integer('sign_count'),
    transports: text('transports'),
    phone: text('phone'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    index('mfa_factors_user_idx').on(t.userId),
    uniqueIndex('mfa_factors_credential_key').on(t.credentialId),
    uniqueIndex('mfa_factors_user_name_key').on(t.userId, t.friendlyName),
  ],
);

export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    factorId: uuid('factor_id')
      .notNull()
      .references(() => mfaFactors.id, { onDelete: 'cascade' }),
    // WebAuthn challenge (base64url) or null for TOTP.
    challenge: text('challenge'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [index('mfa_challenges_factor_idx').on(t.factorId)],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: authTokenKindEnum('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auth_tokens_hash_key').on(t.tokenHash),
    index('auth_tokens_user_idx').on(t.userId, t.kind),
  ],
);

/** Asymmetric keys for access tokens; the public halves are published as JWKS. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  publicJwk: text('public_jwk').notNull(),
  privateJwkEncrypted: text('private_jwk_encrypted').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

/** Fixed-window counters shared by every app process (sign-in/sign-up throttling). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
