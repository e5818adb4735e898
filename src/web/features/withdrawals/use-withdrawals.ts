import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withdrawalsApi } from '@/contracts/api/withdrawals.api.ts';
import type { CreateWithdrawalBody } from '@/contracts/withdrawals.contract.ts';
import { api } from '@/web/lib/api-client.ts';

export const withdrawalKeys = {
  balance: ['withdrawals', 'balance'] as const,
  mine: ['withdrawals', 'mine'] as const,
  admin: ['admin', 'withdrawals'] as const,
};

/** The artist's balance, available amount and pending total, in cents. */
export function useArtistBalance() {
  return useQuery({
    queryKey: withdrawalKeys.balance,
    queryFn: ({ signal }) => api(withdrawalsApi.balance, { signal }),
    retry: false,
  });
}

/** The artist's own requests, newest first. */
export function useMyWithdrawals() {
  return useQuery({
    queryKey: withdrawalKeys.mine,
    queryFn: async ({ signal }) => (await api(withdrawalsApi.mine, { signal })).items,
    retry: false,
  });
}

/**
 * Submits a request. `idempotencyKey` stays the same for retries of one submit (a timeout,
 * a double click), so the server answers them with the first request instead of a second.
 */
export function useRequestWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      body,
      idempotencyKey,
    }: {
      body: CreateWithdrawalBody;
      idempotencyKey: string;
    }) => api(withdrawalsApi.request, { body, idempotencyKey }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: withdrawalKeys.balance });
      void qc.invalidateQueries({ queryKey: withdrawalKeys.mine });
    },
  });
}

export function useAllWithdrawals() {
  return useQuery({
    queryKey: withdrawalKeys.admin,
    queryFn: async ({ signal }) => (await api(withdrawalsApi.all, { signal })).items,
    retry: false,
  });
}

export type Decision = 'approve' | 'reject';

export function useDecideWithdrawal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, notes }: { id: string; decision: Decision; notes: string }) =>
      api(decision === 'approve' ? withdrawalsApi.approve : withdrawalsApi.reject, {
        params: { id },
        body: notes.trim() ? { notes: notes.trim() } : {},
      }),
    onSettled: () => void qc.invalidateQueries({ queryKey: withdrawalKeys.admin }),
  });
}
