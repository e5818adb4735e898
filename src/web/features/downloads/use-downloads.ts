// The downloads as the screens read them (lib/offline keeps them), whether the listener may
// download and play them (a subscriber's, spec's premium page), and the Download action with
// its toasts: done, storage full (nothing kept), or failed.
import { useCallback, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import {
  download,
  downloadsPlayable,
  downloadsSnapshot,
  downloadsSupported,
  subscribeDownloads,
  type DownloadsSnapshot,
} from '@/web/lib/offline/downloads-state.ts';
import { DownloadError, type DownloadSource } from '@/web/lib/offline/download-store.ts';
import { useSession } from '@/web/session/use-session.ts';
import { useSubscription } from '@/web/session/use-subscription.ts';

export const DOWNLOAD_TOAST = {
  done: 'Downloaded',
  quota: 'Storage full',
  failed: 'Download failed',
  premium: 'Offline downloads are a Premium feature',
  premiumDescription:
    'Get Premium to download songs, playlists and episodes and play them offline.',
} as const;

export function useDownloadsSnapshot(): DownloadsSnapshot {
  return useSyncExternalStore(subscribeDownloads, downloadsSnapshot, downloadsSnapshot);
}

/** Whether downloads may be made now (a subscriber, per the server) and played (per the last check). */
export function useDownloadRights(): { canDownload: boolean; canPlay: boolean; known: boolean } {
  const userId = useSession().user?.id ?? null;
  const subscription = useSubscription();
  const snapshot = useDownloadsSnapshot();
  return {
    canDownload: downloadsSupported() && subscription.data?.subscribed === true,
    canPlay: downloadsPlayable(userId, snapshot),
    known: snapshot.ready,
  };
}

const keyOf = (s: { kind: string; id: string }) => `${s.kind}:${s.id}`;

/** Downloads `sources` one after another; stops at a full storage (one message). */
export function useDownloadAction() {
  return useCallback(async (sources: readonly DownloadSource[], label: string) => {
    let stored = 0;
    for (const source of sources) {
      const { entries, pending } = downloadsSnapshot();
      if (pending.has(keyOf(source)) || entries.some((e) => keyOf(e) === keyOf(source))) continue;
      try {
        await download(source);
        stored += 1;
      } catch (e) {
        if (e instanceof DownloadError && e.reason === 'quota') {
          toast.error(DOWNLOAD_TOAST.quota, { id: 'download-quota', description: e.message });
          return;
        }
        console.warn('Download failed', e);
        toast.error(DOWNLOAD_TOAST.failed, {
          description:
            e instanceof DownloadError ? e.message : `“${source.title}” could not be downloaded.`,
        });
        return;
      }
    }
    if (stored > 0 || sources.length > 0) {
      toast.success(DOWNLOAD_TOAST.done, { id: 'downloaded', description: label });
    }
  }, []);
}
