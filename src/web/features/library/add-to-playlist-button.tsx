// 'Add to playlist' for song cards and rows (spec §4, §5): only for signed-in listeners and
// only for stored songs (a uuid id, no external source); opens the Add-to-playlist dialog.
import { useState } from 'react';
import { CirclePlus } from 'lucide-react';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { Dialog, DialogTrigger } from '@/web/components/ui/dialog.tsx';
import { useSession } from '@/web/session/use-session.ts';
import { AddToPlaylistDialogContent } from './add-to-playlist-dialog.tsx';
import { isPlaylistable } from './use-playlists.ts';

export function AddToPlaylistButton({
  song,
  className,
}: {
  song: Pick<SongDto, 'id' | 'title' | 'source'>;
  className?: string;
}) {
  const signedIn = useSession().status === 'signed-in';
  const [open, setOpen] = useState(false);
  if (!signedIn || !isPlaylistable(song)) return null;

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <button
          type="button"
          // Named as people say it; the tooltip says which song.
          aria-label="Add to playlist"
          title={`Add ${song.title} to playlist`}
          className={cn(
            'flex size-8 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/70',
            className,
          )}
        >
          <CirclePlus className="size-4" aria-hidden="true" />
        </button>
      </DialogTrigger>
      {/* Mounted while open only: a closed dialog loads nothing (spec §4: open loads). */}
      {open && <AddToPlaylistDialogContent song={song} onAdded={() => setOpen(false)} />}
    </Dialog>
  );
}
