import {
  localCheckoutBody,
  localCheckoutQuery,
  localCheckoutView,
  premiumOverview,
  redirectUrl,
  subscriptionStatus,
  webhookReceived,
} from '../premium.contract.ts';
import { defineRoute } from './define-route.ts';

export const premiumApi = {
  subscription: defineRoute({
    method: 'GET',
    path: '/api/subscription',
    response: subscriptionStatus,
  }),
  overview: defineRoute({ method: 'GET', path: '/api/premium', response: premiumOverview }),
  checkout: defineRoute({ method: 'POST', path: '/api/premium/checkout', response: redirectUrl }),
  portal: defineRoute({ method: 'POST', path: '/api/premium/portal', response: redirectUrl }),
  localCheckout: defineRoute({
    method: 'GET',
    path: '/api/premium/local/checkout',
    query: localCheckoutQuery,
    response: localCheckoutView,
  }),
  confirmLocalCheckout: defineRoute({
    method: 'POST',
    path: '/api/premium/local/checkout/confirm',
    body: localCheckoutBody,
    response: premiumOverview,
  }),
  cancelLocal: defineRoute({
    method: 'POST',
    path: '/api/premium/local/cancel',
    response: premiumOverview,
  }),
  resumeLocal: defineRoute({
    method: 'POST',
    path: '/api/premium/local/resume',
    response: premiumOverview,
  }),
  /** Stripe's: the body is the raw event, checked against its signature (no schema). */
  stripeWebhook: defineRoute({
    method: 'POST',
    path: '/api/payments/stripe/webhook',
    response: webhookReceived,
  }),
};
