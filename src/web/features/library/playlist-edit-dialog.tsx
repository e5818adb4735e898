// The owner's Edit dialog (docs/decisions/0017): rename, describe and make a playlist public or
// private. Only what changed is sent; a cleared description is stored as none.
import { useId, useState, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import type { PlaylistSummary, UpdatePlaylistBody } from '@/contracts/playlists.contract.ts';
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
import {
  checkPlaylistForm,
  focusFirstProblem,
  type PlaylistFormErrors,
  type PlaylistFormValues,
} from './playlist-form-check.ts';
import { PlaylistFormFields } from './playlist-form.tsx';
import { useUpdatePlaylist } from './use-playlists.ts';

type Editable = Pick<PlaylistSummary, 'id' | 'title' | 'description' | 'is_public'>;

export function PlaylistEditDialog({
  playlist,
  open,
  onOpenChange,
}: {
  playlist: Editable;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted per opening, so the fields start from the playlist as it is now. */}
        {open && <EditForm playlist={playlist} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function EditForm({ playlist, onDone }: { playlist: Editable; onDone: () => void }) {
  const ids = useId();
  const update = useUpdatePlaylist(playlist.id);
  const [values, setValues] = useState<PlaylistFormValues>({
    title: playlist.title,
    description: playlist.description ?? '',
    isPublic: playlist.is_public,
  });
  const [errors, setErrors] = useState<PlaylistFormErrors>({});

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (update.isPending) return;
    const checked = checkPlaylistForm(values);
    setErrors(checked.errors ?? {});
    if (checked.errors) return focusFirstProblem(ids, checked.errors);

    const { title, description = null, is_public = true } = checked.body;
    const body: UpdatePlaylistBody = {};
    if (title !== playlist.title) body.title = title;
    if (description !== playlist.description) body.description = description;
    if (is_public !== playlist.is_public) body.is_public = is_public;
    if (Object.keys(body).length === 0) return onDone();
    update.mutate(body, { onSuccess: onDone });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Edit playlist</DialogTitle>
        <DialogDescription>Rename it, describe it, or choose who can see it.</DialogDescription>
      </DialogHeader>
      <fieldset disabled={update.isPending} className="grid gap-4">
        <PlaylistFormFields ids={ids} values={values} errors={errors} onChange={setValues} />
      </fieldset>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={update.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="brand" disabled={update.isPending}>
          {update.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Save Changes
        </Button>
      </DialogFooter>
    </form>
  );
}
