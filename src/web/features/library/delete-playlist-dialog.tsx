// Deleting a playlist (owners only, docs/decisions/0017): a confirm, then back to the library. The songs
// themselves stay; only the list goes.
import { useNavigate } from 'react-router';
import { LoaderCircle } from 'lucide-react';
import type { PlaylistSummary } from '@/contracts/playlists.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog.tsx';
import { useDeletePlaylist } from './use-playlists.ts';

export function DeletePlaylistDialog({
  playlist,
  open,
  onOpenChange,
}: {
  playlist: Pick<PlaylistSummary, 'id' | 'title'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const remove = useDeletePlaylist();

  return (
    <Dialog open={open} onOpenChange={(o) => !remove.isPending && onOpenChange(o)}>
      <DialogContent hideClose>
        <DialogHeader>
          <DialogTitle>{`Delete "${playlist.title}"?`}</DialogTitle>
          <DialogDescription>
            The playlist is removed for everyone who can see it. The songs in it stay on Canto. This
            cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={remove.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(playlist, {
                onSuccess: () => void navigate('/playlists', { replace: true }),
              })
            }
          >
            {remove.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
            Delete
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
