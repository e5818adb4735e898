// The Share dialog: the item's canonical link to copy, the system share sheet where the browser
// has one, and for songs and public playlists the <iframe> snippet of the embed player.
import { useId } from 'react';
import { Code, Copy, Share2 } from 'lucide-react';
import { toast } from 'sonner';
import type { ShareKind } from '@/contracts/share.contract.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { embedSnippet, isEmbeddable, shareUrl } from './share-links.ts';

export interface ShareTarget {
  kind: ShareKind;
  id: string;
  /** The item's name, as the dialog and the embed's frame title say it. */
  title: string;
  /** Query parameters that help the link's page open (an episode's show). */
  hint?: Record<string, string>;
}

async function copy(text: string, done: string, failed: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done, { id: 'share-copied' });
  } catch {
    toast.error('Error', { id: 'share-copied', description: failed });
  }
}

/** The dialog's content; the caller owns the <Dialog> and its trigger. */
export function ShareDialogContent({ kind, id, title, hint }: ShareTarget) {
  const linkId = useId();
  const embedId = useId();
  const origin = window.location.origin;
  const url = shareUrl(kind, id, origin, hint);
  const snippet = isEmbeddable(kind) ? embedSnippet(kind, id, title, origin) : null;
  // Phones and some desktops have a share sheet; elsewhere the button is not offered at all.
  const canShare = typeof navigator.share === 'function';

  return (
    <DialogContent>
      <DialogHeader>
        <DialogTitle>Share</DialogTitle>
        <DialogDescription>{title}</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor={linkId}>Link</Label>
        <div className="flex gap-2">
          <Input
            id={linkId}
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            className="font-mono text-xs"
          />
          <Button onClick={() => void copy(url, 'Link copied', 'Could not copy the link')}>
            <Copy aria-hidden="true" />
            Copy link
          </Button>
        </div>
        {canShare && (
          <Button
            variant="outline"
            className="justify-self-start"
            onClick={() => {
              // A dismissed sheet rejects with AbortError: nothing to tell the listener.
              navigator.share({ title, url }).catch(() => {});
            }}
          >
            <Share2 aria-hidden="true" />
            Share…
          </Button>
        )}
      </div>
      {snippet && (
        <section aria-labelledby={`${embedId}-heading`} className="grid gap-2">
          <h3 id={`${embedId}-heading`} className="text-sm font-semibold">
            Embed
          </h3>
          <Label htmlFor={embedId} className="font-normal text-muted-foreground">
            Embed code
          </Label>
          <Textarea
            id={embedId}
            readOnly
            rows={4}
            value={snippet}
            onFocus={(e) => e.currentTarget.select()}
            className="resize-none font-mono text-xs"
          />
          <Button
            variant="outline"
            className="justify-self-start"
            onClick={() => void copy(snippet, 'Embed code copied', 'Could not copy the embed code')}
          >
            <Code aria-hidden="true" />
            Copy embed code
          </Button>
        </section>
      )}
    </DialogContent>
  );
}
