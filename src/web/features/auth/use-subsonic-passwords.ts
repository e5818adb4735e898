// Server state of the Subsonic app passwords card: the list (never the secrets), create, revoke.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { subsonicApi } from '@/contracts/api/subsonic.api.ts';
import { api } from '@/web/lib/api-client.ts';

export const appPasswordsKey = ['auth', 'subsonic-passwords'] as const;

export function useAppPasswords() {
  return useQuery({
    queryKey: appPasswordsKey,
    queryFn: async () => (await api(subsonicApi.listPasswords)).items,
  });
}

export function useCreateAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(subsonicApi.createPassword, { body: { name } }),
    onSettled: () => qc.invalidateQueries({ queryKey: appPasswordsKey }),
  });
}

export function useRevokeAppPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(subsonicApi.revokePassword, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: appPasswordsKey }),
  });
}
