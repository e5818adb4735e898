// Premium's public face for the shell: the top bar's Premium mark and the sync that keeps
// premium current across tabs. Its screens (premium-page, checkout-page,
// manage-subscription-page) are lazy routes in app.tsx.
export { PremiumBadge } from './premium-badge.tsx';
export { usePremiumSync } from './use-premium-sync.ts';
