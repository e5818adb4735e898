// What the media pipeline is doing with an artist's own song, on its card (ADR 0014): nothing
// once ready, 'Processing…' until the streaming files exist, and a failure with a retry when
// the job gave up. Everyone can play the song meanwhile: the original is the fallback.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { songsApi } from '@/contracts/api/songs.api.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { MediaProcessingStatus } from '@/web/components/upload/media-processing-status.tsx';

export function SongMediaStatus({ song }: { song: SongDto }) {
  const qc = useQueryClient();
  const [retrying, setRetrying] = useState(false);

  const retry = async () => {
    setRetrying(true);
    try {
      await api(songsApi.reprocess, { params: { id: song.id } });
      // The lists then show 'Processing…' and keep asking until it settles.
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['songs'] }),
        qc.invalidateQueries({ queryKey: ['search'] }),
      ]);
    } catch (e) {
      toast.error('Error', { description: errorMessage(e) });
    } finally {
      setRetrying(false);
    }
  };

  return (
    <MediaProcessingStatus
      status={song.status}
      title={song.title}
      retrying={retrying}
      onRetry={() => void retry()}
      testId="song-media-status"
      className="mt-1"
      spread
    />
  );
}
