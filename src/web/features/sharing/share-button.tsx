// 'Share' on songs, public playlists, profiles, shows and episodes: opens the Share dialog.
// `icon` is the round button of song cards and rows; `button` the labelled one of page headers.
import { useState } from 'react';
import { Share2 } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Dialog, DialogTrigger } from '@/web/components/ui/dialog.tsx';
import { ShareDialogContent, type ShareTarget } from './share-dialog.tsx';

export function ShareButton({
  look = 'button',
  className,
  ...target
}: ShareTarget & { look?: 'icon' | 'button'; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {look === 'icon' ? (
          <button
            type="button"
            // A list has one per row: the name says which, as 'Add … to queue' does.
            aria-label={`Share ${target.title}`}
            title="Share"
            className={cn(
              'flex size-8 shrink-0 items-center justify-center rounded-full text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/70',
              className,
            )}
          >
            <Share2 className="size-4" aria-hidden="true" />
          </button>
        ) : (
          <Button variant="outline" className={className}>
            <Share2 aria-hidden="true" />
            Share
          </Button>
        )}
      </DialogTrigger>
      {/* Mounted while open only: a closed dialog renders nothing. */}
      {open && <ShareDialogContent {...target} />}
    </Dialog>
  );
}
