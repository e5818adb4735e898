// Stream records in the provider: a record when a start first plays, the heard time reported
// every 30 s while playing and when the page is hidden, the start before reported as it ends.
// The bookkeeping is StreamRecorder's; the engine's events reach it through what this returns.
import { useCallback, useEffect, useState, type RefObject } from 'react';
import { listeningApi } from '@/contracts/api/listening.api.ts';
import type { PlayerState } from '@/core/player/player-machine.ts';
import { api } from '@/web/lib/api-client.ts';
import { StartFollower, type StartView } from './play-starts.ts';
import { REPORT_EVERY_MS, StreamRecorder, type StreamRecordApi } from './stream-recorder.ts';
import { usePageHidden } from './use-page-hidden.ts';
import type { PlayerItem } from './use-player.ts';

const streamRecordApi: StreamRecordApi = {
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

export function useStreamRecords(
  { playId, playing, current }: StartView<PlayerItem>,
  stateRef: RefObject<PlayerState>,
): StreamRecorder {
  const [records] = useState(() => {
    const recorder = new StreamRecorder(streamRecordApi);
    return { recorder, starts: new StartFollower<PlayerItem>(recorder) };
  });
  const { recorder, starts } = records;

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

  return recorder;
}
