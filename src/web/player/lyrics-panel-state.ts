// Whether the lyrics panel is open: shared by the player bar's Lyrics button and the shell
// that mounts the panel, as the queue panel's state is (queue-panel-state.ts).
import { useSyncExternalStore } from 'react';

let open = false;
const listeners = new Set<() => void>();

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

function setOpen(next: boolean): void {
  if (open === next) return;
  open = next;
  for (const l of listeners) l();
}

export function useLyricsPanel(): { open: boolean; setOpen(open: boolean): void } {
  const isOpen = useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
  return { open: isOpen, setOpen };
}
