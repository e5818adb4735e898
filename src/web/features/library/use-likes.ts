// Liked songs (spec §2, §4 Like button). Every like button reads one cached set of ids
// (GET /me/liked-songs/ids) instead of asking per card; a toggle updates that set at once
// and puts it back if the server refuses.
import { useEffect, useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { libraryApi } from '@/contracts/api/library.api.ts';
import type { LikedSongIds, LikedSongs } from '@/contracts/library.contract.ts';
import { api, errorMessage } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';

export const likesKeys = {
  all: ['me', 'liked-songs'] as const,
  list: ['me', 'liked-songs', 'list'] as const,
  ids: ['me', 'liked-songs', 'ids'] as const,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only stored songs can be liked: external catalogue tracks (`<source>:<id>`) have no row. */
export const isLikeable = (songId: string): boolean => UUID.test(songId);

const EMPTY: ReadonlySet<string> = new Set();

/** The ids of the songs the listener likes; empty while loading or signed out. */
export function useLikedIds(): ReadonlySet<string> {
  const signedIn = useSession().status === 'signed-in';
  const { data, error } = useQuery({
    queryKey: likesKeys.ids,
    queryFn: ({ signal }) => api(libraryApi.likedSongIds, { signal }),
    enabled: signedIn,
    staleTime: 60_000,
  });
  // Spec §8: a failed liked-status check is only logged; the buttons show "not liked".
  useEffect(() => {
    if (error) console.error('Failed to load liked songs', error);
  }, [error]);
  return useMemo(() => (data ? new Set(data.song_ids) : EMPTY), [data]);
}

/** Spec §8: liking needs a session. */
export function signInToLike(): void {
  toast.error('Sign in required', { id: TOAST_ID, description: 'Please sign in to like songs' });
}

export function useLikedSongs() {
  return useQuery({
    queryKey: likesKeys.list,
    queryFn: ({ signal }) => api(libraryApi.likedSongs, { signal }),
    select: (data) => data.items,
  });
}

// One id for every like toast: a run of toggles updates one toast rather than stacking them.
const TOAST_ID = 'liked-songs';

type Toggle = {
  songId: string;
  like: boolean;
  /** The song's title, under the toast's text. */
  title: string;
  /** The success toast of an unlike (the /liked page says it its own way). */
  unlikeMessage?: string;
};

/**
 * Like or unlike one song, shown at once in every button, with spec §8's toasts. The toasts
 * live here, not in the button: an unlike on /liked removes the row (and its button) before
 * the answer arrives, and a component's own callbacks would then never run.
 */
export function useToggleLike() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ songId, like }: Toggle) =>
      api(like ? libraryApi.like : libraryApi.unlike, { params: { songId } }),
    onMutate: async ({ songId, like }: Toggle) => {
      await client.cancelQueries({ queryKey: likesKeys.ids });
      const before = client.getQueryData<LikedSongIds>(likesKeys.ids);
      const ids = new Set(before?.song_ids ?? []);
      if (like) ids.add(songId);
      else ids.delete(songId);
      client.setQueryData<LikedSongIds>(likesKeys.ids, { song_ids: [...ids] });
      if (!like) {
        // The /liked list drops the row at once too.
        client.setQueryData<LikedSongs>(likesKeys.list, (list) =>
          list ? { items: list.items.filter((i) => i.song.id !== songId) } : list,
        );
      }
      return { before };
    },
    onSuccess: (_data, { like, title, unlikeMessage }) => {
      toast.success(like ? 'Added to liked songs' : (unlikeMessage ?? 'Removed from liked songs'), {
        id: TOAST_ID,
        description: title,
      });
    },
    onError: (e, _vars, context) => {
      if (context?.before) client.setQueryData(likesKeys.ids, context.before);
      toast.error('Error', {
        id: TOAST_ID,
        description: errorMessage(e, 'Failed to update liked status'),
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: likesKeys.all }),
  });
}
