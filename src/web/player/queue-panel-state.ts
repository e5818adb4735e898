// Whether the queue panel is open: shared by the player bar's Queue button and the shell that
// mounts the panel, which sit in different subtrees. A tiny store rather than a context, so
// neither needs a provider and nothing else re-renders when it flips.
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

export interface QueuePanelState {
  open: boolean;
  setOpen(open: boolean): void;
}

export function useQueuePanel(): QueuePanelState {
  const isOpen = useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
  return { open: isOpen, setOpen };
}
