// Premium (spec §1, §2 Premium, §6 subscriber, §8, §9; docs/decisions/0022): the price, what it
// gives, the spec's messages and the calendar arithmetic of a monthly period. Shared by web
// and server; pure.

/** Spec §9: $9.99 per month, in cents (money is integer cents: no float ever rounds it). */
export const PREMIUM_PRICE_CENTS = 999;

/** Spec §1 and §6: what a subscriber gets. */
export const PREMIUM_BENEFITS = [
  { title: 'No ads', detail: 'Listen without the advertisement card or ad audio.' },
  { title: 'Unlimited skips', detail: 'Free listeners may skip 2 times per hour.' },
  { title: 'AI music companion', detail: 'Talk to a voice assistant that finds music for you.' },
  // The spec marked it coming soon; it is here now (docs/decisions/0036-offline-downloads.md).
  {
    title: 'Offline downloads',
    detail: 'Download songs, playlists and episodes and play them without a connection.',
  },
] as const;

/** How long a local test-mode checkout link stays valid. */
export const LOCAL_CHECKOUT_TTL_MS = 60 * 60_000;

/** Stripe's default webhook signature tolerance, which Canto keeps (docs/decisions/0022). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const premiumMessages = {
  // Spec §8, shown by the web app when create-checkout or customer-portal fails.
  checkoutFailed: 'Failed to start checkout',
  portalFailed: 'Failed to open subscription management',
  alreadySubscribed: 'You already have Premium',
  nothingToManage: 'You have no subscription to manage',
  checkoutInvalid: 'This checkout link is not valid. Start again from Premium.',
  checkoutExpired: 'This checkout link has expired. Start again from Premium.',
  localOff: 'Test-mode checkout is not enabled on this server',
  stripeOff: 'Stripe payments are not enabled on this server',
  webhookSignature: 'The webhook signature is missing, not valid or too old',
  webhookBody: 'The webhook body is not a Stripe event',
} as const;

/** '$9.99' for 999. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Spec §9 as people read it: '$9.99 per month'. */
export const PREMIUM_PRICE_LABEL = `${formatUsd(PREMIUM_PRICE_CENTS)} per month`;

/**
 * The same time `months` calendar months later (UTC), clamped to the last day of a shorter
 * month: Jan 31 + 1 → Feb 28 (29 in a leap year), as billing periods run.
 */
export function addMonths(from: Date, months: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}
