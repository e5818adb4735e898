// Stream records in the provider: a record when a start first plays, the heard time reported
// every 30 s while playing and when the page is hidden, the start before reported as it ends.
// The bookkeeping is StreamRecorder's; the engine's events reach it through what this returns.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { listeningApi } from '@/contracts/api/listening.api.ts';
import type { PlayerState } from '@/core/player/player-machine.ts';
import { api, isApiError } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { indexedDbStore } from '@/web/lib/offline/record-queue-store.ts';
import { StartFollower, type StartView } from './play-starts.ts';
import { QueuedRecords, type QueuedRecord } from './queued-records.ts';
import { REPORT_EVERY_MS, StreamRecorder, type StreamRecordApi } from './stream-recorder.ts';
import { usePageHidden } from './use-page-hidden.ts';
import type { PlayerItem } from './use-player.ts';

const onlineRecordApi: StreamRecordApi = {
  start: ({ id, kind }) =>
    api(listeningApi.startPlay, {
      body: kind === 'episode' ? { episode_id: id } : { song_id: id },
    }),
  report: (recordId, listenedMs) =>
    api(listeningApi.playProgress, {
      params: { id: recordId },
      body: { listened_ms: listenedMs },
    }),
};

/** Offline, records wait on the device and are sent when the network is back. */
const queuedRecordApi = (userId: () => string | null) =>
  new QueuedRecords({
    online: onlineRecordApi,
    sendPlay: ({ key, item, startedAt, listenedMs }) =>
      api(listeningApi.offlinePlay, {
        params: { id: key },
        body: {
          ...(item.kind === 'episode' ? { episode_id: item.id } : { song_id: item.id }),
          started_at: startedAt,
          listened_ms: listenedMs,
        },
      }),
    store: indexedDbStore<QueuedRecord>(),
    isOffline: () => !navigator.onLine,
    userId,
    // No answer, or a server fault: worth sending again; a refusal (4xx) is not.
    unreachable: (e) => isApiError(e) && (e.status === 0 || e.status >= 500),
    newId: () => crypto.randomUUID(),
    now: () => new Date(),
    log: (m, e) => console.warn(m, e),
  });

export function useStreamRecords(
  { playId, playing, current }: StartView<PlayerItem>,
  stateRef: RefObject<PlayerState>,
): StreamRecorder {
  const userId = useSession().user?.id ?? null;
  const userRef = useRef(userId);
  userRef.current = userId;
  const [records] = useState(() => {
    const queue = queuedRecordApi(() => userRef.current);
    const recorder = new StreamRecorder(queue);
    return { queue, recorder, starts: new StartFollower<PlayerItem>(recorder) };
  });
  const { queue, recorder, starts } = records;

  useEffect(
    () => starts.seen({ playId, playing, current }, () => stateRef.current.progress),
    [playId, playing, current, starts, stateRef],
  );

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => recorder.report(), REPORT_EVERY_MS);
    return () => clearInterval(timer);
  }, [playing, recorder]);

  usePageHidden(useCallback(() => recorder.report(), [recorder]));

  // What waited offline is sent at start and whenever the network comes back.
  useEffect(() => {
    const flush = () => void queue.flush().catch((e: unknown) => console.warn(e));
    flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, [queue, userId]);

  return recorder;
}
