// The drag handle of a row in a vertical dnd-kit list (the queue, a playlist's tracks). The
// sortable attributes go on the handle, not the <li> (axe: stack-notes), so the row's other
// buttons stay plain buttons.
import type { useSortable } from '@dnd-kit/sortable';
import { GripVertical } from 'lucide-react';
import { cn } from './cn.ts';

type Sortable = ReturnType<typeof useSortable>;

export function SortableHandle({
  sortable,
  title,
  className,
}: {
  sortable: Pick<Sortable, 'attributes' | 'listeners' | 'setActivatorNodeRef'>;
  /** The row's title: the handle is named "Reorder <title>". */
  title: string;
  /** Its size within the row. */
  className?: string;
}) {
  return (
    <button
      type="button"
      ref={sortable.setActivatorNodeRef}
      {...sortable.attributes}
      {...sortable.listeners}
      aria-label={`Reorder ${title}`}
      className={cn(
        'flex shrink-0 cursor-grab touch-none items-center justify-center rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60 active:cursor-grabbing',
        className,
      )}
    >
      <GripVertical className="size-4" aria-hidden="true" />
    </button>
  );
}
