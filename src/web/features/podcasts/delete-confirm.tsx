// The creator's Delete button for an episode or a show, and its confirm dialog (Cancel /
// Delete), as songs have theirs. Display only: the server refuses anyone else.
import { useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Trash2 } from 'lucide-react';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { ConfirmDeleteBody } from '@/web/components/confirm-delete.tsx';
import { Dialog, DialogContent, DialogTrigger } from '@/web/components/ui/dialog.tsx';

export function DeleteWithConfirm({
  label,
  trigger,
  title,
  description,
  deleted,
  failed,
  remove,
  focusAfterDelete,
  className,
}: {
  /** The button's accessible name, e.g. "Delete <episode title>". */
  label: string;
  /** What the button shows; an icon alone when absent. */
  trigger?: ReactNode;
  title: string;
  description: string;
  /** The toasts: success and failure titles. */
  deleted: string;
  failed: string;
  remove: () => Promise<unknown>;
  /**
   * Where focus goes once the item is gone (its row, and this button with it, unmount);
   * Cancel still returns it to the button.
   */
  focusAfterDelete?: () => HTMLElement | null;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const removed = useRef(false);

  const confirm = async () => {
    setDeleting(true);
    try {
      await remove();
      removed.current = true;
      setOpen(false);
      toast.success(deleted);
    } catch (err) {
      toast.error(failed, { description: errorMessage(err) });
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !deleting && setOpen(o)}>
      <DialogTrigger asChild>
        <Button
          variant={trigger ? 'outline' : 'ghost'}
          size={trigger ? 'sm' : 'icon'}
          aria-label={label}
          title={trigger ? undefined : label}
          className={className}
        >
          <Trash2 aria-hidden="true" />
          {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent
        hideClose
        onCloseAutoFocus={(e) => {
          if (!removed.current || !focusAfterDelete) return;
          removed.current = false;
          const target = focusAfterDelete();
          if (!target) return;
          e.preventDefault();
          target.focus();
        }}
      >
        <ConfirmDeleteBody
          title={title}
          description={description}
          deleting={deleting}
          onConfirm={() => void confirm()}
        />
      </DialogContent>
    </Dialog>
  );
}
