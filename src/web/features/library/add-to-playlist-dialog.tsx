// The Add-to-playlist dialog's body (spec §2, §4, §5): opening it loads the listener's own
// playlists (3 skeletons meanwhile, the list at most 400px high); a click adds the song and
// a success closes the dialog; 'Already in playlist' keeps it open, so another can be chosen.
import { useState } from 'react';
import { ListMusic, LoaderCircle, Lock, Plus, RotateCw } from 'lucide-react';
import type { PlaylistSummary } from '@/contracts/playlists.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { playlistMessages } from '@/core/validation/playlist.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import {
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { CreatePlaylistDialog } from './create-playlist-dialog.tsx';
import { useAddTrack, useMyPlaylists } from './use-playlists.ts';

const SKELETONS = 3;

export const trackCountLabel = (n: number) => `${n} ${n === 1 ? 'track' : 'tracks'}`;

export function AddToPlaylistDialogContent({
  song,
  onAdded,
}: {
  song: Pick<SongDto, 'id' | 'title'>;
  /** Closes the dialog. */
  onAdded: () => void;
}) {
  const { data: playlists, isPending, isError, isFetching, refetch } = useMyPlaylists();
  const add = useAddTrack();
  const [creating, setCreating] = useState(false);
  const addingTo = add.isPending ? add.variables.playlist.id : null;

  const addTo = (playlist: Pick<PlaylistSummary, 'id' | 'title'>) => {
    if (add.isPending) return;
    add.mutate({ playlist, song }, { onSuccess: onAdded });
  };

  return (
    <DialogContent
      data-testid="add-to-playlist-dialog"
      // A new playlist's dialog sits on top of this one; this one must not close under it.
      onInteractOutside={(e) => creating && e.preventDefault()}
    >
      <DialogHeader>
        <DialogTitle>Add to playlist</DialogTitle>
        <DialogDescription>{`Choose a playlist for "${song.title}".`}</DialogDescription>
      </DialogHeader>

      {isPending ? (
        <ul
          aria-hidden="true"
          data-testid="add-to-playlist-loading"
          className="flex flex-col gap-1"
        >
          {Array.from({ length: SKELETONS }, (_, i) => (
            <li key={i} className="flex items-center gap-3 px-2 py-2">
              <Skeleton className="size-10 rounded-md" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-1/2" />
                <Skeleton className="h-3 w-1/4" />
              </div>
            </li>
          ))}
        </ul>
      ) : isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center">
          <p>{playlistMessages.loadListFailed}</p>
          <Button variant="outline" disabled={isFetching} onClick={() => void refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : playlists.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-8 text-center text-muted-foreground">
          <ListMusic className="size-8" aria-hidden="true" />
          <p className="font-medium text-foreground">No playlists yet</p>
          <p className="text-sm">Create one and this song goes straight in.</p>
        </div>
      ) : (
        <ul
          aria-label="Your playlists"
          aria-busy={add.isPending}
          className="scrollbar-thin -mx-2 flex max-h-[400px] flex-col gap-0.5 overflow-y-auto px-2"
        >
          {playlists.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                disabled={add.isPending}
                onClick={() => addTo(p)}
                // Named by the title alone; the count and privacy are its description.
                aria-labelledby={`${p.id}-title`}
                aria-describedby={`${p.id}-count`}
                className={cn(
                  'flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/60 disabled:cursor-wait',
                  addingTo === p.id && 'bg-accent',
                  addingTo && addingTo !== p.id && 'opacity-60',
                )}
              >
                <CoverArt
                  src={p.cover_art_url}
                  className="size-10 shrink-0 rounded-md bg-muted object-cover"
                />
                <span className="min-w-0 flex-1">
                  <span id={`${p.id}-title`} className="block truncate text-sm font-medium">
                    {p.title}
                  </span>
                  <span
                    id={`${p.id}-count`}
                    className="flex items-center gap-1 text-xs text-muted-foreground"
                  >
                    {trackCountLabel(p.track_count)}
                    {!p.is_public && (
                      <>
                        {' · '}
                        <Lock className="size-3" aria-hidden="true" />
                        Private
                      </>
                    )}
                  </span>
                </span>
                {addingTo === p.id && (
                  <LoaderCircle className="size-4 animate-spin" aria-label="Adding" />
                )}
              </button>
            </li>
          ))}
        </ul>
      )}

      <DialogFooter className="sm:justify-start">
        <Button variant="outline" disabled={add.isPending} onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          New playlist
        </Button>
      </DialogFooter>

      <CreatePlaylistDialog
        open={creating}
        onOpenChange={setCreating}
        description={`"${song.title}" goes into it once it is created.`}
        onCreated={addTo}
      />
    </DialogContent>
  );
}
