// The Media Session in the provider: the lock screen's buttons drive the controls, and it shows
// the item, whether it plays, and where it is (at each start, play, pause and new duration; a
// seek shows its own position through the controls).
import { useEffect, type RefObject } from 'react';
import type { PlayerState } from '@/core/player/player-machine.ts';
import { playerMediaControls, type MediaSessionView } from './media-session.ts';
import type { PlayerControls, PlayerItem } from './use-player.ts';

export function useMediaSession(
  session: MediaSessionView,
  controls: PlayerControls,
  shown: { current: PlayerItem | null; playing: boolean; duration: number; playId: number },
  /** The speed the current item plays at. */
  rate: number,
  stateRef: RefObject<PlayerState>,
): void {
  const { current, playing, duration, playId } = shown;
  const isEpisode = current?.kind === 'episode';
  useEffect(
    () => session.bind(playerMediaControls(controls, () => stateRef.current.playing, isEpisode)),
    [session, controls, isEpisode, stateRef],
  );
  useEffect(() => session.showItem(current), [session, current]);
  useEffect(() => session.showState(current ? playing : null), [session, current, playing]);
  useEffect(
    () => session.showPosition(stateRef.current.progress, duration, rate),
    // A start, a play or pause, a new duration or speed: progress ticks are the browser's own.
    [session, duration, playing, playId, rate, stateRef],
  );
}
