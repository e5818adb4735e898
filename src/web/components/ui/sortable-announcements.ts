// What a screen reader hears while a vertical dnd-kit list is reordered: titles and
// positions, not dnd-kit's ids (the queue and a playlist's tracks).
import { useMemo, useRef } from 'react';
import type { Announcements, UniqueIdentifier } from '@dnd-kit/core';

/** `ids` in their order; `titleAt(i)` names the row at index i. */
export function useSortableAnnouncements(
  ids: readonly string[],
  titleAt: (index: number) => string | undefined,
): Announcements {
  // The drag starts over its own row: that is no move, so it would only replace 'Picked up…'.
  const lastOver = useRef<UniqueIdentifier | null>(null);
  return useMemo<Announcements>(() => {
    const title = (id: UniqueIdentifier) => titleAt(ids.indexOf(String(id))) ?? 'Track';
    const where = (id: UniqueIdentifier | undefined) =>
      id === undefined ? null : `position ${ids.indexOf(String(id)) + 1} of ${ids.length}`;
    return {
      onDragStart: ({ active }) => {
        lastOver.current = active.id;
        return `Picked up ${title(active.id)} at ${where(active.id)}.`;
      },
      onDragOver: ({ active, over }) => {
        if (!over || over.id === lastOver.current) return undefined;
        lastOver.current = over.id;
        return `${title(active.id)} moved to ${where(over.id)}.`;
      },
      onDragEnd: ({ active, over }) => {
        const at = where(over?.id);
        return at ? `${title(active.id)} dropped at ${at}.` : `${title(active.id)} dropped.`;
      },
      onDragCancel: ({ active }) => `Moving ${title(active.id)} was cancelled.`,
    };
    // titleAt reads the same list as ids: a new list brings new ids.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids]);
}
