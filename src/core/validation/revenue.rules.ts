// Artist economics (spec §4 tier, §8, §9; docs/decisions/0029): the model's constants, the
// artist tier and share, and the screens' messages. Shared by web and server; pure.
import { PREMIUM_PRICE_CENTS } from './premium.rules.ts';

/** Each premium listener's monthly contribution to the pool, in cents. */
export const PREMIUM_CONTRIBUTION_CENTS = PREMIUM_PRICE_CENTS;
/** Platform fee on contributions, ad money and tips: 5 %, rounded half up to the cent. */
export const PLATFORM_FEE_PERCENT = 5;
/** $5 per 1,000 impressions: half a cent each, so ad money is counted in half-cents. */
export const AD_IMPRESSION_HALF_CENTS = 1;
/** The dashboard's estimate: $0.004 per stream, in tenths of a cent. */
export const ESTIMATE_TENTHS_OF_CENT_PER_STREAM = 4;
/** Recent streams on the dashboard cover the last 7 days. */
export const RECENT_STREAM_DAYS = 7;

export type ArtistTier = 'small' | 'medium' | 'large';

/** Tier thresholds by the month's stream count, and the artist's share in percent. */
export const TIERS: readonly { tier: ArtistTier; minStreams: number; sharePercent: number }[] = [
  { tier: 'small', minStreams: 0, sharePercent: 80 },
  { tier: 'medium', minStreams: 10_000, sharePercent: 75 },
  { tier: 'large', minStreams: 100_000, sharePercent: 70 },
];

export function artistTier(monthStreams: number): { tier: ArtistTier; sharePercent: number } {
  let found = TIERS[0]!;
  for (const t of TIERS) if (monthStreams >= t.minStreams) found = t;
  return { tier: found.tier, sharePercent: found.sharePercent };
}

/** 5 % of `cents`, rounded half up (integer arithmetic only). */
export function platformFeeCents(cents: bigint): bigint {
  return (cents * BigInt(PLATFORM_FEE_PERCENT) * 2n + 100n) / 200n;
}

/** 'YYYY-MM' of a UTC calendar month. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export const revenueMessages = {
  calculated: (n: number) => `Revenue calculated for ${n} artists`,
  calculateFailed: 'Failed to calculate revenue',
  loadFailed: 'Failed to load revenue data',
  artistOnly: 'Artist access only',
  adminOnly: 'Admin access only',
  runInProgress: 'A revenue calculation for this month is already running',
  monthNotStarted: 'That month has not begun yet',
  monthInvalid: 'Month must be written YYYY-MM',
} as const;

export const withdrawalMessages = {
  minimum: 'Minimum withdrawal amount is $10',
  paypalEmail: 'Please enter your PayPal email',
  bankDetails: 'Please enter your bank details',
  submitted: "Withdrawal request submitted! You'll be notified once processed.",
  submitFailed: 'Failed to submit withdrawal request',
  loadFailed: 'Failed to load withdrawal requests',
  updateFailed: 'Failed to update withdrawal status',
  approved: 'Withdrawal approved',
  rejected: 'Withdrawal rejected',
  processingTime:
    'Withdrawals are processed within 3 to 5 business days (bank transfer 2 to 3 days).',
} as const;

/** Spec §9: minimum withdrawal $10, in cents. */
export const MIN_WITHDRAWAL_CENTS = 1000;
