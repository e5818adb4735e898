import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.schema.ts';
import { createdAt, lengthBetween } from './columns.ts';
import { artistWithdrawals, paymentMethodEnum } from './money.schema.ts';

/*
 * What the withdrawals module keeps beside artist_withdrawals (docs/decisions/0029).
 */

/**
 * One row per artist who has asked for money: the row every balance-changing transaction
 * locks (FOR UPDATE) before it reads the balance, and the artist's payout settings (the last
 * method and details entered, sealed; a provider's connected account for payouts).
 */
export const artistAccounts = pgTable(
  'artist_accounts',
  {
    artistId: uuid('artist_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    paymentMethod: paymentMethodEnum('payment_method'),
    /** JSON of the payment details, AES-256-GCM with a key from SECRET_KEY. */
    paymentDetailsEncrypted: text('payment_details_encrypted'),
    paymentDetailsMasked: text('payment_details_masked'),
    /** The payment provider's connected account that receives payouts, once onboarded. */
    payoutAccountId: text('payout_account_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [lengthBetween('artist_accounts_payout_account_len', t.payoutAccountId, 1, 255)],
);

/**
 * A submit's Idempotency-Key and the answer it got: a retry with the same key and body gets
 * that answer again; the same key with another body is refused. Only accepted submits are
 * kept (a refused one wrote nothing, so its retry is judged afresh).
 */
export const withdrawalIdempotencyKeys = pgTable(
  'withdrawal_idempotency_keys',
  {
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the request's canonical form (amount, method, details). */
    requestHash: text('request_hash').notNull(),
    withdrawalId: uuid('withdrawal_id')
      .notNull()
      .references(() => artistWithdrawals.id, { onDelete: 'cascade' }),
    statusCode: integer('status_code').notNull(),
    /** The answer's JSON as first sent. */
    response: text('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.artistId, t.key] }),
    lengthBetween('withdrawal_idempotency_keys_key_len', t.key, 1, 255),
    check('withdrawal_idempotency_keys_status', sql`${t.statusCode} between 200 and 299`),
  ],
);
