// Where the player finds an item's downloaded copy: the downloads index and the stored
// subscription check (lib/offline), for the signed-in listener. A new function whenever
// either changes, so the current item follows (a lapse stops its download at once).
import { useCallback, useSyncExternalStore } from 'react';
import {
  downloadsPlayable,
  downloadsSnapshot,
  subscribeDownloads,
} from '@/web/lib/offline/downloads-state.ts';
import { audioKey } from '@/web/lib/offline/download-keys.ts';
import { useSession } from '@/web/session/use-session.ts';
import type { PlayerItem } from './use-player.ts';

export function useDownloadedSource(): (item: PlayerItem) => string | null {
  const userId = useSession().user?.id ?? null;
  const snapshot = useSyncExternalStore(subscribeDownloads, downloadsSnapshot, downloadsSnapshot);
  const playable = downloadsPlayable(userId, snapshot);
  const { entries } = snapshot;
  return useCallback(
    (item: PlayerItem) =>
      playable && entries.some((e) => e.kind === item.kind && e.id === item.id)
        ? audioKey(item.kind, item.id)
        : null,
    [playable, entries],
  );
}
