// Spec §2 Queue panel (right side, 24rem wide, between the top bar and the player bar):
// heading 'Queue', 'Clear', a close button, the empty state, the sortable list and the footer
// '{n} track(s) in queue'. Not modal: the page and the player stay usable beside it. Escape
// closes it; focus goes in on open and back to where it came from on close.
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { ListMusic, X } from 'lucide-react';
import type { PlayableItem } from '@/core/player/player-machine.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { QueueList } from './queue-list.tsx';

export interface QueuePanelViewProps {
  items: readonly PlayableItem[];
  onClose(): void;
  onClear(): void;
  onMove(from: number, to: number): void;
  onRemove(index: number): void;
  onPlay(index: number): void;
}

export function QueuePanelView({
  items,
  onClose,
  onClear,
  onMove,
  onRemove,
  onPlay,
}: QueuePanelViewProps) {
  const headingId = useId();
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus();
    const node = panel.current;
    return () => {
      // Only when focus was still in the panel: a click elsewhere keeps its own focus.
      if (node?.contains(document.activeElement) || document.activeElement === document.body)
        opener?.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    // A handle mid-drag (aria-pressed) needs Escape to cancel the move, not close the panel.
    const target = e.target as HTMLElement;
    if (e.key === 'Escape' && target.getAttribute('aria-pressed') !== 'true') {
      e.stopPropagation();
      onClose();
    }
  };

  return (
    <aside
      ref={panel}
      aria-labelledby={headingId}
      data-testid="queue-panel"
      onKeyDown={onKeyDown}
      className="fixed top-16 right-0 bottom-32 z-40 flex w-96 max-w-full flex-col border-l border-sidebar-border bg-sidebar shadow-2xl sm:bottom-24"
    >
      <header className="flex items-center gap-2 border-b px-4 py-3">
        <h2
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="flex-1 text-lg font-semibold outline-none"
        >
          Queue
        </h2>
        <Button variant="ghost" size="sm" onClick={onClear} disabled={items.length === 0}>
          Clear
        </Button>
        <Button variant="ghost" size="icon" aria-label="Close queue" onClick={onClose}>
          <X aria-hidden="true" />
        </Button>
      </header>

      {items.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 text-center">
          <ListMusic className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">Queue is empty</p>
          <p className="text-sm text-muted-foreground">Add songs or episodes to see them here</p>
        </div>
      ) : (
        <>
          <div className="min-h-0 flex-1 overflow-y-auto p-2">
            <QueueList items={items} onMove={onMove} onRemove={onRemove} onPlay={onPlay} />
          </div>
          <footer className="border-t px-4 py-3 text-sm text-muted-foreground">
            <p data-testid="queue-count">{items.length} track(s) in queue</p>
          </footer>
        </>
      )}
    </aside>
  );
}
