// An artist's own song card: a "More actions" menu with Edit song (title, genre, cover art, lyrics)
// and Delete song (after a confirm). Only rendered for the song's artist; the server checks
// ownership again on every call. Afterwards every song list and search is refetched.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ImageIcon, LoaderCircle, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { songsApi } from '@/contracts/api/songs.api.ts';
import { songUploadFields, type SongDto, type SongEditBody } from '@/contracts/songs.contract.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { uploadForm } from '@/web/components/upload/upload.ts';
import { firstEditProblem, type SongEditField } from '@/web/features/catalogue/song-edit-check.ts';
import { ConfirmDeleteBody } from '@/web/components/confirm-delete.tsx';
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
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu.tsx';
import { focusField, GenreField, LyricsField, TitleField } from '@/web/components/upload/field.tsx';
import { useSongLyrics } from '@/web/player/use-song-lyrics.ts';
import { FileField } from '@/web/components/upload/file-field.tsx';

type Open = 'edit' | 'delete' | null;

function useRefreshSongs() {
  const qc = useQueryClient();
  // Home, Browse, genre lists and Search all start with one of these keys; artist profiles
  // (their songs and song count) with 'profiles' (the social feature's keys).
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['songs'] }),
      qc.invalidateQueries({ queryKey: ['search'] }),
      qc.invalidateQueries({ queryKey: ['profiles'] }),
    ]);
}

const showError = (e: unknown) => toast.error('Error', { description: errorMessage(e) });

export function SongOwnerMenu({ song, className }: { song: SongDto; className?: string }) {
  const [open, setOpen] = useState<Open>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const dialogOpening = useRef(false);
  const openDialog = (which: Exclude<Open, null>) => {
    dialogOpening.current = true;
    setOpen(which);
  };

  // The dialogs open from a menu item that is gone by then: give focus back to the trigger.
  const returnFocus = (e: Event) => {
    e.preventDefault();
    triggerRef.current?.focus();
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            ref={triggerRef}
            variant="ghost"
            size="icon"
            aria-label={`More actions for ${song.title}`}
            className={className}
          >
            <MoreHorizontal aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="end"
          // Opening a dialog from the menu: the dialog takes focus, not the trigger.
          onCloseAutoFocus={(e) => {
            if (dialogOpening.current) e.preventDefault();
            dialogOpening.current = false;
          }}
        >
          <DropdownMenuItem onSelect={() => openDialog('edit')}>
            <Pencil aria-hidden="true" />
            Edit song
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => openDialog('delete')}
            className="text-destructive data-[highlighted]:text-destructive"
          >
            <Trash2 aria-hidden="true" />
            Delete song
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={open === 'edit'} onOpenChange={(o) => setOpen(o ? 'edit' : null)}>
        <DialogContent onCloseAutoFocus={returnFocus}>
          {/* Mounted per opening, so the fields start from the song as it is now. */}
          {open === 'edit' && <EditSongForm song={song} onDone={() => setOpen(null)} />}
        </DialogContent>
      </Dialog>

      <Dialog open={open === 'delete'} onOpenChange={(o) => setOpen(o ? 'delete' : null)}>
        <DialogContent onCloseAutoFocus={returnFocus} hideClose>
          <DeleteSongConfirm song={song} onDone={() => setOpen(null)} />
        </DialogContent>
      </Dialog>
    </>
  );
}

function EditSongForm({ song, onDone }: { song: SongDto; onDone: () => void }) {
  const ids = useId();
  const refresh = useRefreshSongs();
  const [title, setTitle] = useState(song.title);
  const [genre, setGenre] = useState(song.genre ?? '');
  const [cover, setCover] = useState<File | null>(null);
  // The lyrics as stored, fetched when the song has some; null until known.
  const stored = useSongLyrics(song.has_lyrics ? song.id : null);
  // A failed fetch counts as none: the field is usable, and unchanged it sends nothing.
  const storedText =
    !song.has_lyrics || stored.isError
      ? ''
      : stored.data === undefined
        ? null
        : (stored.data?.text ?? '');
  const [lyrics, setLyrics] = useState<string | null>(storedText);
  const [invalid, setInvalid] = useState<SongEditField | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (storedText !== null) setLyrics((typed) => typed ?? storedText);
  }, [storedText]);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (saving) return;
    const problem = firstEditProblem({
      title,
      genre,
      cover,
      lyrics: lyrics ?? '',
      duration: song.duration,
    });
    setInvalid(problem?.field ?? null);
    if (problem) {
      toast.error('Error', { description: problem.message });
      focusField(`${ids}-${problem.field}`);
      return;
    }

    const body: SongEditBody = {};
    if (title.trim() !== song.title) body.title = title.trim();
    if (genre.trim() !== (song.genre ?? '')) body.genre = genre.trim() || null;
    if (lyrics !== null && storedText !== null && lyrics !== storedText)
      body.lyrics = lyrics.trim() ? lyrics : null;

    setSaving(true);
    let changed = false;
    try {
      if (Object.keys(body).length > 0) {
        await api(songsApi.edit, { params: { id: song.id }, body });
        changed = true;
      }
      if (cover) {
        const form = new FormData();
        form.append(songUploadFields.cover, cover);
        await uploadForm(songsApi.replaceCover, { params: { id: song.id } }, form);
        changed = true;
      }
      if (changed) toast.success('Song updated successfully');
      onDone();
    } catch (err) {
      showError(err);
    } finally {
      setSaving(false);
      // A title saved before a cover that failed still shows everywhere.
      if (changed) void refresh();
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Edit song</DialogTitle>
        <DialogDescription>
          Change the title, genre, cover art or lyrics of this song.
        </DialogDescription>
      </DialogHeader>
      <fieldset disabled={saving} className="grid gap-4">
        <TitleField
          id={`${ids}-title`}
          value={title}
          onChange={setTitle}
          invalid={invalid === 'title'}
          required
        />
        <GenreField
          id={`${ids}-genre`}
          value={genre}
          onChange={setGenre}
          invalid={invalid === 'genre'}
        />
        <FileField
          id={`${ids}-cover`}
          label="Cover art (optional)"
          icon={ImageIcon}
          accept="image/*"
          name="cover"
          onChange={setCover}
          invalid={invalid === 'cover'}
          hint="Leave empty to keep the current cover. Images up to 5 MB."
        />
        <LyricsField
          id={`${ids}-lyrics`}
          value={lyrics ?? ''}
          onChange={setLyrics}
          invalid={invalid === 'lyrics'}
          disabled={lyrics === null}
          placeholder={lyrics === null ? 'Loading lyrics…' : undefined}
        />
      </fieldset>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={saving}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="brand" disabled={saving}>
          {saving && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Save Changes
        </Button>
      </DialogFooter>
    </form>
  );
}

function DeleteSongConfirm({ song, onDone }: { song: SongDto; onDone: () => void }) {
  const refresh = useRefreshSongs();
  const [deleting, setDeleting] = useState(false);

  // The player is left alone: a song playing now keeps playing from what the browser has
  // fetched until another item is loaded.
  const remove = async () => {
    setDeleting(true);
    try {
      await api(songsApi.remove, { params: { id: song.id } });
      onDone();
      toast.success('Song deleted');
      void refresh();
    } catch (err) {
      showError(err);
      setDeleting(false);
    }
  };

  return (
    <ConfirmDeleteBody
      title={`Delete "${song.title}"?`}
      description="The song, its audio and its cover art are removed for everyone. This cannot be undone."
      deleting={deleting}
      onConfirm={() => void remove()}
    />
  );
}
