// The artist's months, balance and withdrawals (spec §2 Artist revenue), read fresh on each
// visit: a month is recalculated and a request decided elsewhere.
import { useQuery } from '@tanstack/react-query';
import { revenueApi } from '@/contracts/api/revenue.api.ts';
import { withdrawalsApi } from '@/contracts/api/withdrawals.api.ts';
import { api, routeUrl } from '@/web/lib/api-client.ts';

export const artistRevenueKeys = {
  months: ['artist', 'revenue'] as const,
  balance: ['artist', 'balance'] as const,
  withdrawals: ['artist', 'withdrawals'] as const,
};

export function useRevenueMonths() {
  return useQuery({
    queryKey: artistRevenueKeys.months,
    queryFn: ({ signal }) => api(revenueApi.months, { signal }),
    select: (data) => data.items,
    staleTime: 0,
  });
}

export function useArtistBalance() {
  return useQuery({
    queryKey: artistRevenueKeys.balance,
    queryFn: ({ signal }) => api(withdrawalsApi.balance, { signal }),
    staleTime: 0,
  });
}

export function useMyWithdrawals() {
  return useQuery({
    queryKey: artistRevenueKeys.withdrawals,
    queryFn: ({ signal }) => api(withdrawalsApi.mine, { signal }),
    select: (data) => data.items,
    staleTime: 0,
  });
}

/** The CSV statement of a month ('YYYY-MM') or a year ('YYYY'), downloaded by the browser. */
export const statementUrl = (period: { month: string } | { year: string }): string =>
  routeUrl(revenueApi.statement, { query: period });
