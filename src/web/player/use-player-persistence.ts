// The player kept across a reload, in the provider: restored once per signed-in user (paused,
// and the skip clock starts from then), kept on every change but progress ticks, which are kept
// every few seconds while playing and when the page is hidden or closed.
import { useCallback, useEffect, useState, type Dispatch, type RefObject } from 'react';
import type { PlayerEvent, PlayerState } from '@/core/player/player-machine.ts';
import type { StartPoints } from './play-starts.ts';
import { PlayerKeeper } from './player-persistence.ts';
import { usePageHidden } from './use-page-hidden.ts';

/** While playing, the position is kept this often (and on pause, seek, hide). */
const SAVE_EVERY_MS = 2_000;

export function usePlayerPersistence(
  userId: string | null,
  state: PlayerState,
  stateRef: RefObject<PlayerState>,
  dispatch: Dispatch<PlayerEvent>,
  /** A kept player's position is where its item's start begins. */
  points: StartPoints,
): void {
  const [keeper] = useState(() => new PlayerKeeper());
  const { current, queue, history, shuffle, repeat, volume, muted, duration } = state;
  const pausedAt = state.playing ? -1 : state.progress;
  useEffect(
    () => keeper.save(userId, stateRef.current),
    [
      keeper,
      stateRef,
      userId,
      current,
      queue,
      history,
      shuffle,
      repeat,
      volume,
      muted,
      duration,
      pausedAt,
      state.skipCount,
      state.skipWindowStartedAt,
    ],
  );

  const save = useCallback(() => {
    if (userId) keeper.save(userId, stateRef.current);
  }, [keeper, stateRef, userId]);
  usePageHidden(save);
  useEffect(() => {
    if (!userId) return;
    const timer = setInterval(() => {
      if (stateRef.current.playing) save();
    }, SAVE_EVERY_MS);
    window.addEventListener('pagehide', save);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', save);
    };
  }, [save, stateRef, userId]);

  // After the keeping effects: on the first render they must not write the empty state over
  // the kept one (the keeper refuses until this ran).
  useEffect(() => {
    if (!userId) return;
    const restored = keeper.restore(userId);
    if (!restored) return;
    if (restored.saved) {
      points.keep(stateRef.current.playId, Number(restored.saved.progress) || 0);
      dispatch({ type: 'restored', state: restored.saved });
    }
    dispatch({ type: 'skipClockTicked', at: Date.now() });
  }, [keeper, userId, dispatch, stateRef, points]);
}
