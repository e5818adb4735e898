import { z } from 'zod';

/*
 * Payouts through the provider (docs/decisions/0029): with PAYMENTS=stripe an artist connects
 * a Stripe account (Connect onboarding) and 'Approve & Pay' on a stripe-method withdrawal
 * transfers the amount there; the transfer's webhook settles the request.
 */

/** GET /api/artist/payouts/stripe: the caller's connected account, as settings show it. */
export const stripePayoutAccount = z.object({
  enabled: z.boolean().describe('PAYMENTS=stripe on this server'),
  connected: z.boolean().describe('a connected account exists for the artist'),
  ready: z.boolean().describe('onboarding done: the account can take transfers'),
});
export type StripePayoutAccount = z.infer<typeof stripePayoutAccount>;

/** POST /api/artist/payouts/stripe/onboard: Stripe's onboarding page for the account. */
export const onboardingLink = z.object({ url: z.string() });
