// 'Add to queue' for any card or list row: queues the item at the end (never interrupting
// what plays) and says so in one toast that a run of adds updates rather than stacks.
import { ListPlus } from 'lucide-react';
import { toast } from 'sonner';
import { cn } from '@/web/components/ui/cn.ts';
import { usePlayerControls, type PlayerItem } from './use-player.ts';

export function AddToQueueButton({ item, className }: { item: PlayerItem; className?: string }) {
  const { addToQueue } = usePlayerControls();
  return (
    <button
      type="button"
      aria-label={`Add ${item.title} to queue`}
      title="Add to queue"
      onClick={() => {
        addToQueue([item]);
        toast.success('Added to queue', { id: 'added-to-queue', description: item.title });
      }}
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/70',
        className,
      )}
    >
      <ListPlus className="size-4" aria-hidden="true" />
    </button>
  );
}
