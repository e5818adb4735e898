// An artist's own songs while the media pipeline works on them (docs/decisions/0014): lists holding one
// ask again every few seconds, so 'Processing…' turns into the song (or a failure) unaided,
// and stop asking once none is processing. Listeners never poll for others' songs.
import type { SongDto } from '@/contracts/songs.contract.ts';

export const PROCESSING_POLL_MS = 3_000;

/** True when one of `songs` belongs to `userId` and is still processing. */
export function hasOwnProcessing(
  songs: readonly Pick<SongDto, 'artist_id' | 'status'>[],
  userId: string | null | undefined,
): boolean {
  if (!userId) return false;
  return songs.some((s) => s.artist_id === userId && s.status === 'processing');
}

/**
 * A TanStack Query `refetchInterval` for a list: every few seconds while the signed-in
 * artist has a song processing in it, else no polling.
 */
export function pollWhileProcessing<T>(
  userId: string | null | undefined,
  songsOf: (data: T) => readonly Pick<SongDto, 'artist_id' | 'status'>[],
) {
  return (query: { state: { data: T | undefined } }): number | false => {
    const data = query.state.data;
    return data !== undefined && hasOwnProcessing(songsOf(data), userId)
      ? PROCESSING_POLL_MS
      : false;
  };
}
