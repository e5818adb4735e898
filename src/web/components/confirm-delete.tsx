// The body of a "delete this for good?" dialog: what goes, then Cancel and Delete (a spinner
// while it runs, both disabled). Songs and podcasts open it from their own triggers.
import type { ReactNode } from 'react';
import { LoaderCircle } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog.tsx';

export function ConfirmDeleteBody({
  title,
  description,
  deleting,
  onConfirm,
}: {
  title: string;
  description: ReactNode;
  deleting: boolean;
  onConfirm: () => void;
}) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={deleting}>
            Cancel
          </Button>
        </DialogClose>
        <Button variant="destructive" onClick={onConfirm} disabled={deleting}>
          {deleting && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Delete
        </Button>
      </DialogFooter>
    </>
  );
}
