// The Create Playlist dialog (spec §2, §5, §8), opened from /playlists, from the sidebar's
// Create Playlist on any screen, and from the Add-to-playlist dialog.
import { useId, useState, type FormEvent } from 'react';
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
import {
  checkPlaylistForm,
  focusFirstProblem,
  type PlaylistFormErrors,
  type PlaylistFormValues,
} from './playlist-form-check.ts';
import { PlaylistFormFields } from './playlist-form.tsx';
import { useCreatePlaylist } from './use-playlists.ts';

export function CreatePlaylistDialog({
  open,
  onOpenChange,
  onCreated,
  description = 'Name it now; add songs from any song’s Add to playlist.',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the dialog has closed on success. */
  onCreated?: (playlist: PlaylistSummary) => void;
  description?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted per opening: every opening starts from empty fields. */}
        {open && (
          <CreatePlaylistForm
            description={description}
            onCreated={(playlist) => {
              onOpenChange(false);
              onCreated?.(playlist);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreatePlaylistForm({
  description,
  onCreated,
}: {
  description: string;
  onCreated: (playlist: PlaylistSummary) => void;
}) {
  const ids = useId();
  const create = useCreatePlaylist();
  // Spec §3: new playlists are public unless the listener says otherwise.
  const [values, setValues] = useState<PlaylistFormValues>({
    title: '',
    description: '',
    isPublic: true,
  });
  const [errors, setErrors] = useState<PlaylistFormErrors>({});

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (create.isPending) return;
    const checked = checkPlaylistForm(values);
    setErrors(checked.errors ?? {});
    if (checked.errors) return focusFirstProblem(ids, checked.errors);
    create.mutate(checked.body, { onSuccess: onCreated });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Create Playlist</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <fieldset disabled={create.isPending} className="grid gap-4">
        <PlaylistFormFields ids={ids} values={values} errors={errors} onChange={setValues} />
      </fieldset>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={create.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="brand" disabled={create.isPending}>
          {create.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Create
        </Button>
      </DialogFooter>
    </form>
  );
}
