// Server state of the Scrobbling card: the listener's connections, connecting and
// disconnecting ListenBrainz (a user token) and Last.fm (start, allow on last.fm, finish).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { scrobblingApi } from '@/contracts/api/scrobbling.api.ts';
import type { ScrobbleService } from '@/core/validation/scrobbling.rules.ts';
import { api } from '@/web/lib/api-client.ts';

export const scrobblingKey = ['scrobbling', 'settings'] as const;

export function useScrobblingSettings() {
  return useQuery({ queryKey: scrobblingKey, queryFn: () => api(scrobblingApi.settings) });
}

export function useConnectListenBrainz() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api(scrobblingApi.connectListenBrainz, { body: { token } }),
    onSettled: () => qc.invalidateQueries({ queryKey: scrobblingKey }),
  });
}

export function useStartLastfm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(scrobblingApi.startLastfm),
    onSettled: () => qc.invalidateQueries({ queryKey: scrobblingKey }),
  });
}

export function useFinishLastfm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(scrobblingApi.finishLastfm),
    onSettled: () => qc.invalidateQueries({ queryKey: scrobblingKey }),
  });
}

export function useDisconnectScrobbling() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (service: ScrobbleService) =>
      api(
        service === 'listenbrainz'
          ? scrobblingApi.disconnectListenBrainz
          : scrobblingApi.disconnectLastfm,
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: scrobblingKey }),
  });
}
