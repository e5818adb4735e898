// What the media pipeline is doing with an artist's own song (issue 8), on its card: nothing
// once ready, 'Processing…' until the streaming files exist, and a failure with a retry when
// the job gave up. Everyone can play the song meanwhile: the original is the fallback.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { AlertTriangle, LoaderCircle, RotateCw } from 'lucide-react';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { toUserMessage } from '@/core/error-messages.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';

export function SongMediaStatus({ song }: { song: SongDto }) {
  const qc = useQueryClient();
  const [retrying, setRetrying] = useState(false);

  if (song.status === 'ready') return null;

  if (song.status === 'processing') {
    return (
      <p
        data-testid="song-media-status"
        className="mt-1 flex items-center gap-1.5 text-xs text-muted-foreground"
      >
        <LoaderCircle className="size-3.5 shrink-0 animate-spin" aria-hidden="true" />
        Processing…
      </p>
    );
  }

  const retry = async () => {
    setRetrying(true);
    try {
      await api.post<SongDto>(`/songs/${song.id}/reprocess`, {});
      // The lists then show 'Processing…' and keep asking until it settles.
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['songs'] }),
        qc.invalidateQueries({ queryKey: ['search'] }),
      ]);
    } catch (e) {
      toast.error('Error', { description: errorMessage(e, toUserMessage(e)) });
    } finally {
      setRetrying(false);
    }
  };

  return (
    // Wraps on narrow cards so the words are never cut; red-400 reads on the dark card.
    <div
      data-testid="song-media-status"
      className="mt-1 flex flex-wrap items-center justify-between gap-x-2 gap-y-1"
    >
      <p className="flex items-center gap-1.5 text-xs text-red-400">
        <AlertTriangle className="size-3.5 shrink-0" aria-hidden="true" />
        Processing failed
      </p>
      <Button
        variant="outline"
        size="sm"
        className="h-7 shrink-0 px-2 text-xs"
        aria-label={`Retry processing ${song.title}`}
        disabled={retrying}
        onClick={() => void retry()}
      >
        {retrying ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <RotateCw aria-hidden="true" />
        )}
        Retry
      </Button>
    </div>
  );
}
