// The queue panel as the shell mounts it: nothing until the bar's Queue button opens it, then
// the view (with dnd-kit, its own chunk: most visits never open the queue) wired to the player.
import { lazy, Suspense } from 'react';
import { usePlayerControls, usePlayerQueue } from './use-player.ts';
import { useQueuePanel } from './queue-panel-state.ts';

const QueuePanelView = lazy(() =>
  import('./queue-panel-view.tsx').then((m) => ({ default: m.QueuePanelView })),
);

function ConnectedQueuePanel({ onClose }: { onClose(): void }) {
  const { queue } = usePlayerQueue();
  const { clearQueue, moveInQueue, removeFromQueue, playFromQueue } = usePlayerControls();
  return (
    <QueuePanelView
      items={queue}
      onClose={onClose}
      onClear={clearQueue}
      onMove={moveInQueue}
      onRemove={removeFromQueue}
      onPlay={playFromQueue}
    />
  );
}

export function QueuePanel() {
  const { open, setOpen } = useQueuePanel();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ConnectedQueuePanel onClose={() => setOpen(false)} />
    </Suspense>
  );
}
