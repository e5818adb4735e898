// Withdrawals: the artist's withdrawal settings and the admins' withdrawal management are lazy
// routes in app.tsx. Other features (the revenue screen) show the balance and the requests'
// statuses with these.
export { WithdrawalStatusBadge } from './withdrawal-parts.tsx';
export { useArtistBalance, useMyWithdrawals } from './use-withdrawals.ts';
