// The lyrics panel (where the queue panel opens: right side, between the top bar and the
// player bar): heading 'Lyrics', the song's title, a close button and the lyrics. Not modal;
// Escape closes it; focus goes in on open and back to where it came from on close. Its own
// chunk: most visits never open it.
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { LyricsLines } from './lyrics-view.tsx';
import type { PlayerItem } from './use-player.ts';

export function LyricsPanelView({ item, onClose }: { item: PlayerItem; onClose(): void }) {
  const headingId = useId();
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus();
    const node = panel.current;
    return () => {
      if (node?.contains(document.activeElement) || document.activeElement === document.body)
        opener?.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
    }
  };

  return (
    <aside
      ref={panel}
      aria-labelledby={headingId}
      data-testid="lyrics-panel"
      onKeyDown={onKeyDown}
      className="fixed top-16 right-0 bottom-32 z-40 flex w-96 max-w-full flex-col border-l border-sidebar-border bg-sidebar shadow-2xl sm:bottom-24"
    >
      <header className="flex items-center gap-2 border-b px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="text-lg font-semibold outline-none"
          >
            Lyrics
          </h2>
          <p className="truncate text-sm text-muted-foreground">{item.title}</p>
        </div>
        <Button variant="ghost" size="icon" aria-label="Close lyrics" onClick={onClose}>
          <X aria-hidden="true" />
        </Button>
      </header>
      <div data-lyrics-scroll className="flex-1 overflow-y-auto px-4 py-4">
        <LyricsLines item={item} />
      </div>
    </aside>
  );
}
