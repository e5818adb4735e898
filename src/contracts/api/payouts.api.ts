import { onboardingLink, stripePayoutAccount } from '../payouts.contract.ts';
import { defineRoute } from './define-route.ts';

export const payoutsApi = {
  stripeAccount: defineRoute({
    method: 'GET',
    path: '/api/artist/payouts/stripe',
    response: stripePayoutAccount,
  }),
  stripeOnboard: defineRoute({
    method: 'POST',
    path: '/api/artist/payouts/stripe/onboard',
    response: onboardingLink,
  }),
};
