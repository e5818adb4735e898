// Keyboard shortcuts in the provider, page-wide; player-shortcuts.ts says what each key does
// and when the keys stay quiet.
import { useEffect, type RefObject } from 'react';
import type { PlayerState } from '@/core/player/player-machine.ts';
import { describeTarget, shortcutRunner } from './player-shortcuts.ts';
import type { PlayerControls, PlayerItem } from './use-player.ts';

export function usePlayerShortcuts(
  controls: PlayerControls,
  stateRef: RefObject<PlayerState>,
): void {
  useEffect(() => {
    const run = shortcutRunner(controls);
    const onKey = (e: KeyboardEvent) => {
      const item = stateRef.current.current as PlayerItem | null;
      run(e, describeTarget(e.target), item?.kind ?? null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controls, stateRef]);
}
