// Payouts' public face: the Stripe Connect panel withdrawal settings show for the stripe method.
export { StripeConnect } from './stripe-connect.tsx';
