import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
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
import { users } from './auth.schema.ts';
import { podcastEpisodes, songMediaStatusEnum, songs } from './catalogue.schema.ts';
import { cents, createdAt, lengthBetween, nonNegative, yearMonth } from './columns.ts';

/*
 * Money tables: subscriptions, ads, revenue, withdrawals (docs/decisions/0022, 0023). All
 * amounts are bigint cents with CHECK ≥ 0.
 * Rows that record money owed or paid (subscriptions, artist_revenue, withdrawals) use
 * ON DELETE RESTRICT towards users: deleting an account with a money history must be an
 * explicit decision (anonymise), never a silent cascade that rewrites the books.
 */

export const paymentProviderEnum = pgEnum('payment_provider', ['local', 'stripe']);
// Stripe's subscription statuses; the local provider uses active and canceled.
export const subscriptionStatusEnum = pgEnum('subscription_status', [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
]);
export const withdrawalStatusEnum = pgEnum('withdrawal_status', [
  'pending',
  'processing',
  'completed',
  'rejected',
]);
export const paymentMethodEnum = pgEnum('payment_method', ['paypal', 'bank', 'stripe']);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: paymentProviderEnum('provider').notNull(),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    status: subscriptionStatusEnum('status').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('subscriptions_period_order', sql`${t.currentPeriodEnd} > ${t.currentPeriodStart}`),
    // Webhooks upsert by the provider's id.
    uniqueIndex('subscriptions_provider_sub_key').on(t.provider, t.providerSubscriptionId),
    // check-subscription: the user's latest period.
    index('subscriptions_user_period_idx').on(t.userId, t.currentPeriodEnd.desc().nullsFirst()),
    // The revenue run: subscriptions overlapping a month.
    index('subscriptions_period_idx').on(t.currentPeriodStart, t.currentPeriodEnd),
  ],
);

/** Provider webhook events already applied; the primary key makes handling idempotent. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: paymentProviderEnum('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'payment_events_pkey', columns: [t.provider, t.eventId] })],
);

export const ads = pgTable(
  'ads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description'),
    imageUrl: text('image_url'),
    imageKey: text('image_key'),
    audioUrl: text('audio_url'),
    audioKey: text('audio_key'),
    durationMs: integer('duration_ms').notNull().default(30_000),
    targetUrl: text('target_url'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    /** The ad's audio through the media pipeline, as songs' (ADR 0014); 'ready' without audio. */
    mediaStatus: songMediaStatusEnum('media_status').notNull().default('ready'),
    loudnessLufs: doublePrecision('loudness_lufs'),
    truePeakDbtp: doublePrecision('true_peak_dbtp'),
  },
  (t) => [
    lengthBetween('ads_title_len', t.title, 1, 200),
    check('ads_duration_ms_positive', sql`${t.durationMs} > 0`),
    // get-active-ads rotates among the (few) active rows.
    index('ads_active_idx')
      .on(t.createdAt)
      .where(sql`${t.active}`),
  ],
);

/**
 * A showing: one ad handed to one listener (docs/decisions/0023), with the ad's duration then
 * and the song or episode the listener's current stream record named then (neither: nothing
 * was playing). An impression is recorded only for a showing, once, and is attributed to what
 * the showing names. The listener's latest showing decides the frequency cap.
 */
export const adShowings = pgTable(
  'ad_showings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    songId: uuid('song_id').references(() => songs.id, { onDelete: 'set null' }),
    podcastEpisodeId: uuid('podcast_episode_id').references(() => podcastEpisodes.id, {
      onDelete: 'set null',
    }),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('ad_showings_one_item', sql`num_nonnulls(${t.songId}, ${t.podcastEpisodeId}) <= 1`),
    check('ad_showings_duration_ms_positive', sql`${t.durationMs} > 0`),
    index('ad_showings_user_created_idx').on(t.userId, t.createdAt),
    // The prune of showings past any use takes the oldest first.
    index('ad_showings_created_idx').on(t.createdAt),
  ],
);

/**
 * Each row is worth 0.5 cents to the artist of its song or the creator of its episode's
 * show (docs/decisions/0023). References are SET NULL so earned impressions outlive an ad.
 */
export const adImpressions = pgTable(
  'ad_impressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adId: uuid('ad_id').references(() => ads.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    songId: uuid('song_id').references(() => songs.id, { onDelete: 'set null' }),
    podcastEpisodeId: uuid('podcast_episode_id').references(() => podcastEpisodes.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    /** The showing (ad_showings.id; older rows: a signed token's uuid): one impression each. */
    showingId: uuid('showing_id'),
  },
  (t) => [
    uniqueIndex('ad_impressions_showing_key').on(t.showingId),
    check('ad_impressions_one_item', sql`num_nonnulls(${t.songId}, ${t.podcastEpisodeId}) <= 1`),
    index('ad_impressions_created_idx').on(t.createdAt),
    // The admin inventory's counts per ad, all time and last 30 days: index-only range reads.
    index('ad_impressions_ad_created_idx').on(t.adId, t.createdAt),
  ],
);

export const revenueRuns = pgTable(
  'revenue_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    month: text('month').notNull(),
    artistsProcessed: integer('artists_processed').notNull(),
    /** Σ contributions of the month (999 per premium listener), in cents. */
    totalPremiumPoolCents: cents('total_premium_pool_cents').notNull(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
    ranBy: uuid('ran_by').references(() => users.id, { onDelete: 'set null' }),
    /*
     * The run's ledger (docs/decisions/0029), so an accountant can follow every cent of the
     * pool: pool = fee + unallocated + allocated, and allocated = artists' premium + the
     * platform's share remainder.
     */
    premiumListeners: integer('premium_listeners').notNull().default(0),
    /** 5 % of each contribution, rounded half up. */
    premiumFeeCents: cents('premium_fee_cents')
      .notNull()
      .default(sql`0`),
    /** Nets of premium listeners who heard no artist in the month: the platform keeps them. */
    premiumUnallocatedCents: cents('premium_unallocated_cents')
      .notNull()
      .default(sql`0`),
    /** Nets split among artists by listened time, before the tier share. */
    premiumAllocatedCents: cents('premium_allocated_cents')
      .notNull()
      .default(sql`0`),
    /** Σ artist_revenue.premium_revenue of the month. */
    premiumArtistCents: cents('premium_artist_cents')
      .notNull()
      .default(sql`0`),
    adImpressions: bigint('ad_impressions', { mode: 'number' }).notNull().default(0),
    adArtistCents: cents('ad_artist_cents')
      .notNull()
      .default(sql`0`),
    tipArtistCents: cents('tip_artist_cents')
      .notNull()
      .default(sql`0`),
    /** Commit order among runs of the same instant: the newest run is the last inserted. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    yearMonth('revenue_runs_month_format', t.month),
    nonNegative('revenue_runs_artists_nonneg', t.artistsProcessed),
    nonNegative('revenue_runs_pool_nonneg', t.totalPremiumPoolCents),
    nonNegative('revenue_runs_listeners_nonneg', t.premiumListeners),
    nonNegative('revenue_runs_impressions_nonneg', t.adImpressions),
    // Conservation, to the cent, checked by the database on every run.
    check(
      'revenue_runs_pool_conserved',
      sql`${t.totalPremiumPoolCents} = ${t.premiumFeeCents} + ${t.premiumUnallocatedCents} + ${t.premiumAllocatedCents}`,
    ),
    check(
      'revenue_runs_artist_within_allocated',
      sql`${t.premiumArtistCents} between 0 and ${t.premiumAllocatedCents}`,
    ),
    // The scheduled run and the admin screen read a month's newest run.
    index('revenue_runs_month_ran_at_idx').on(t.month, t.ranAt.desc().nullsFirst()),
    // "Last Calculation Results" is the newest run.
    index('revenue_runs_ran_at_idx').on(t.ranAt.desc().nullsFirst()),
  ],
);

export const artistRevenue = pgTable(
  'artist_revenue',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    month: text('month').notNull(),
    premiumRevenueCents: cents('premium_revenue_cents')
      .notNull()
      .default(sql`0`),
    adRevenueCents: cents('ad_revenue_cents')
      .notNull()
      .default(sql`0`),
    tipRevenueCents: cents('tip_revenue_cents')
      .notNull()
      .default(sql`0`),
    totalRevenueCents: cents('total_revenue_cents')
      .notNull()
      .default(sql`0`),
    totalStreams: bigint('total_streams', { mode: 'number' }).notNull().default(0),
    calculatedAt: timestamp('calculated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One row per (artist, month): a re-run replaces the month's rows, it never adds twice.
    uniqueIndex('artist_revenue_artist_month_key').on(t.artistId, t.month),
    index('artist_revenue_month_idx').on(t.month),
    yearMonth('artist_revenue_month_format', t.month),
    nonNegative('artist_revenue_premium_nonneg', t.premiumRevenueCents),
    nonNegative('artist_revenue_ad_nonneg', t.adRevenueCents),
    nonNegative('artist_revenue_tip_nonneg', t.tipRevenueCents),
    nonNegative('artist_revenue_total_nonneg', t.totalRevenueCents),
    nonNegative('artist_revenue_streams_nonneg', t.totalStreams),
    check(
      'artist_revenue_total_sum',
      sql`${t.totalRevenueCents} = ${t.premiumRevenueCents} + ${t.adRevenueCents} + ${t.tipRevenueCents}`,
    ),
  ],
);

export const artistWithdrawals = pgTable(
  'artist_withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountCents: cents('amount_cents').notNull(),
    status: withdrawalStatusEnum('status').notNull().default('pending'),
    paymentMethod: paymentMethodEnum('payment_method').notNull(),
    /** JSON of spec §3 payment_details, AES-256-GCM with a key from SECRET_KEY. */
    paymentDetailsEncrypted: text('payment_details_encrypted').notNull(),
    /** What screens show, e.g. 'PayPal j•••@example.com' or 'Bank ••••6789'. */
    paymentDetailsMasked: text('payment_details_masked').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    processedBy: uuid('processed_by').references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes'),
  },
  (t) => [
    // Minimum withdrawal $10 (spec §9).
    check('artist_withdrawals_amount_min', sql`${t.amountCents} >= 1000`),
    // A decided request records when (spec §4: processed_at set on the change).
    check(
      'artist_withdrawals_processed_at',
      sql`${t.status} not in ('completed', 'rejected') or ${t.processedAt} is not null`,
    ),
    lengthBetween('artist_withdrawals_notes_len', t.notes, 0, 1000),
    index('artist_withdrawals_artist_requested_idx').on(
      t.artistId,
      t.requestedAt.desc().nullsFirst(),
    ),
    index('artist_withdrawals_status_idx').on(t.status, t.requestedAt.desc().nullsFirst()),
  ],
);

export const tipStatusEnum = pgEnum('tip_status', ['pending', 'paid', 'failed']);

/**
 * A listener's tip to an artist ($1–$100), paid through the payment provider. A paid tip is
 * credited, less the platform fee, to the artist's tip_revenue of the month it was paid in
 * (docs/decisions/0029); the provider's id makes a repeated webhook or confirm count once.
 */
export const tips = pgTable(
  'tips',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listenerId: uuid('listener_id').references(() => users.id, { onDelete: 'set null' }),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountCents: cents('amount_cents').notNull(),
    /** 5 % of the amount, rounded half up, fixed when the tip is paid. */
    feeCents: cents('fee_cents')
      .notNull()
      .default(sql`0`),
    provider: paymentProviderEnum('provider').notNull(),
    /** The provider's checkout or payment id; unique so a repeated event credits once. */
    providerRef: text('provider_ref'),
    status: tipStatusEnum('status').notNull().default('pending'),
    message: text('message'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    check('tips_amount_range', sql`${t.amountCents} between 100 and 10000`),
    check('tips_fee_range', sql`${t.feeCents} >= 0 and ${t.feeCents} <= ${t.amountCents}`),
    check('tips_paid_at', sql`${t.status} <> 'paid' or ${t.paidAt} is not null`),
    lengthBetween('tips_message_len', t.message, 0, 280),
    uniqueIndex('tips_provider_ref_key').on(t.provider, t.providerRef),
    // The monthly run and the artist's month: paid tips by artist and time.
    index('tips_artist_paid_idx')
      .on(t.artistId, t.paidAt)
      .where(sql`${t.status} = 'paid'`),
  ],
);
