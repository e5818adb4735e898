// The queue's items (spec §2 Queue panel): reordered by pointer drag or by keyboard with
// dnd-kit (a handle per row: Space or Enter picks up, arrows move 25 px per press (spec §9),
// Space or Enter drops, Escape cancels), removed, or clicked to play.
import { useMemo } from 'react';
import {
  closestCenter,
  DndContext,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { X } from 'lucide-react';
import type { PlayableItem } from '@/core/player/player-machine.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { useSortableAnnouncements } from '@/web/components/ui/sortable-announcements.ts';
import { SortableHandle } from '@/web/components/ui/sortable-handle.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';

/** Spec §9: the keyboard drag step. */
export const KEYBOARD_STEP_PX = 25;

// Up and down only: the list is vertical, so sideways keys would just drift the row.
const verticalSteps: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  if (event.code === KeyboardCode.Down)
    return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP_PX };
  if (event.code === KeyboardCode.Up)
    return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP_PX };
  return undefined;
};

/**
 * One sortable id per row, stable across moves: the item's id plus which occurrence of it this
 * is (the same song may be queued twice), so focus returns to the moved row's handle.
 */
export function rowIds(items: readonly Pick<PlayableItem, 'id'>[]): string[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const n = seen.get(item.id) ?? 0;
    seen.set(item.id, n + 1);
    return `${item.id}#${n}`;
  });
}

export interface QueueListProps {
  items: readonly PlayableItem[];
  onMove(from: number, to: number): void;
  onRemove(index: number): void;
  onPlay(index: number): void;
}

export function QueueList({ items, onMove, onRemove, onPlay }: QueueListProps) {
  const ids = useMemo(() => rowIds(items), [items]);
  const sensors = useSensors(
    // A few pixels first, so a press on the handle is not a drag yet.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: verticalSteps }),
  );

  // dnd-kit announces ids by default; people want titles and positions.
  const announcements = useSortableAnnouncements(ids, (i) => items[i]?.title);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0 && from !== to) onMove(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol aria-label="Up next" className="flex flex-col" data-testid="queue-list">
          {items.map((item, index) => (
            <QueueRow
              key={ids[index]}
              id={ids[index]!}
              item={item}
              index={index}
              onRemove={onRemove}
              onPlay={onPlay}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function QueueRow({
  id,
  item,
  index,
  onRemove,
  onPlay,
}: {
  id: string;
  item: PlayableItem;
  index: number;
  onRemove(index: number): void;
  onPlay(index: number): void;
}) {
  const sortable = useSortable({ id });
  const { setNodeRef, transform, transition, isDragging } = sortable;

  return (
    // Rows stay 48 px high: one 25 px keyboard step then passes the next row's centre.
    <li
      ref={setNodeRef}
      data-testid="queue-item"
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        'group relative flex h-12 items-center gap-1 rounded-md pr-1 hover:bg-accent/60',
        isDragging && 'z-10 bg-accent shadow-lg',
      )}
    >
      <SortableHandle sortable={sortable} title={item.title} className="h-full w-7" />
      <button
        type="button"
        onClick={() => onPlay(index)}
        aria-label={`Play ${item.title} by ${item.podcastTitle}`}
        className="flex h-full min-w-0 flex-1 items-center gap-3 rounded-sm text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <CoverArt src={item.coverArt} className="size-10 shrink-0 rounded bg-muted object-cover" />
        <span className="min-w-0">
          <span data-testid="queue-item-title" className="block truncate text-sm font-medium">
            {item.title}
          </span>
          <span className="block truncate text-xs text-muted-foreground">{item.podcastTitle}</span>
        </span>
      </button>
      <button
        type="button"
        onClick={() => onRemove(index)}
        aria-label={`Remove ${item.title} from queue`}
        className="flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-background/60 hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </li>
  );
}
