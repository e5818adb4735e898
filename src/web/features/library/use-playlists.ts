// Playlists (spec §2 Playlists, Playlist, Add-to-playlist dialog; §5; §8). The toasts live in
// the mutations, not in the components: a dialog or row may be gone before the answer comes
// (a removed track's row, a closed dialog), and the listener must still hear how it went.
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { playlistsApi } from '@/contracts/api/playlists.api.ts';
import type {
  CreatePlaylistBody,
  MyPlaylists,
  PlaylistDetail,
  PlaylistSummary,
  UpdatePlaylistBody,
} from '@/contracts/playlists.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { playlistMessages } from '@/core/validation/playlist.rules.ts';
import { api, errorMessage, isApiError } from '@/web/lib/api-client.ts';
import { useSession } from '@/web/session/use-session.ts';
import { isLikeable } from './use-likes.ts';
import { moveItem } from './playlist-order.ts';

export const playlistKeys = {
  mine: ['me', 'playlists'] as const,
  detail: (id: string) => ['playlists', id] as const,
  move: (id: string) => ['playlists', id, 'move'] as const,
};

/** One toast for all playlist news: a run of actions updates it rather than stacking. */
export const PLAYLIST_TOAST = 'playlists';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isPlaylistId = (id: string | undefined): id is string => !!id && UUID.test(id);

/**
 * Spec §5: only stored songs go in a playlist: a uuid id and no external source (catalogue
 * previews have neither a row nor a stable file).
 */
export const isPlaylistable = (song: Pick<SongDto, 'id' | 'source'>): boolean =>
  !song.source && isLikeable(song.id);

const showError = (e: unknown, fallback: string) =>
  toast.error('Error', { id: PLAYLIST_TOAST, description: errorMessage(e, fallback) });

/** The listener's playlists, newest first. */
export function useMyPlaylists() {
  const signedIn = useSession().status === 'signed-in';
  const query = useQuery({
    queryKey: playlistKeys.mine,
    queryFn: ({ signal }) => api(playlistsApi.mine, { signal }),
    select: (data) => data.items,
    enabled: signedIn,
  });
  const failed = query.isError && !query.isFetching;
  // Spec §8: a destructive 'Error' toast (the screen shows the message and Try again too).
  useEffect(() => {
    if (failed)
      toast.error('Error', { id: 'playlists-load', description: playlistMessages.loadListFailed });
  }, [failed]);
  return query;
}

export function useCreatePlaylist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePlaylistBody) => api(playlistsApi.create, { body }),
    onSuccess: (created) => {
      // Newest first: the new one leads the list at once, before the refetch confirms it.
      client.setQueryData<MyPlaylists>(playlistKeys.mine, (list) =>
        list ? { items: [created, ...list.items.filter((p) => p.id !== created.id)] } : list,
      );
      void client.invalidateQueries({ queryKey: playlistKeys.mine });
      toast.success(playlistMessages.created, { id: PLAYLIST_TOAST, description: created.title });
    },
    onError: (e) => showError(e, playlistMessages.createFailed),
  });
}

export function usePlaylist(id: string | undefined) {
  return useQuery({
    queryKey: playlistKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api(playlistsApi.get, { params: { id: id! }, signal }),
    enabled: isPlaylistId(id),
  });
}

/** A 404 (missing, or another listener's private playlist) is "not found", not a failure. */
export const isNotFound = (e: unknown): boolean => isApiError(e) && e.status === 404;

export function useUpdatePlaylist(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePlaylistBody) => api(playlistsApi.update, { params: { id }, body }),
    onSuccess: (updated) => {
      client.setQueryData<PlaylistDetail>(playlistKeys.detail(id), (d) =>
        d ? { ...d, playlist: { ...d.playlist, ...updated } } : d,
      );
      void client.invalidateQueries({ queryKey: playlistKeys.mine });
      toast.success('Playlist updated', { id: PLAYLIST_TOAST, description: updated.title });
    },
    onError: (e) => showError(e, 'Failed to update playlist'),
  });
}

export function useDeletePlaylist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (playlist: Pick<PlaylistSummary, 'id' | 'title'>) =>
      api(playlistsApi.remove, { params: { id: playlist.id } }),
    onSuccess: (_data, playlist) => {
      client.setQueryData<MyPlaylists>(playlistKeys.mine, (list) =>
        list ? { items: list.items.filter((p) => p.id !== playlist.id) } : list,
      );
      client.removeQueries({ queryKey: playlistKeys.detail(playlist.id) });
      void client.invalidateQueries({ queryKey: playlistKeys.mine });
      toast.success('Playlist deleted', { id: PLAYLIST_TOAST, description: playlist.title });
    },
    onError: (e) => showError(e, 'Failed to delete playlist'),
  });
}

type AddTrack = { playlist: Pick<PlaylistSummary, 'id' | 'title'>; song: Pick<SongDto, 'id'> };

/**
 * 409 'Already in playlist' (spec §5): the unique key said no. The same code with another
 * message is the track limit, which is an ordinary failure.
 */
export const isAlreadyInPlaylist = (e: unknown): boolean =>
  isApiError(e) && e.status === 409 && e.message !== playlistMessages.full;

export function useAddTrack() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ playlist, song }: AddTrack) =>
      api(playlistsApi.addTrack, { params: { id: playlist.id }, body: { song_id: song.id } }),
    onSuccess: (_data, { playlist }) => {
      void client.invalidateQueries({ queryKey: playlistKeys.detail(playlist.id) });
      // Track counts and covers on /playlists and in the dialog.
      void client.invalidateQueries({ queryKey: playlistKeys.mine });
      toast.success(`Added to "${playlist.title}"`, { id: PLAYLIST_TOAST });
    },
    onError: (e, { playlist }) => {
      if (isAlreadyInPlaylist(e)) {
        toast.error(playlistMessages.alreadyIn, {
          id: PLAYLIST_TOAST,
          description: playlistMessages.alreadyInDescription(playlist.title),
        });
      } else {
        showError(e, playlistMessages.addFailed);
      }
    },
  });
}

const renumber = (tracks: PlaylistDetail['tracks']) =>
  tracks.map((t, position) => (t.position === position ? t : { ...t, position }));

export function useRemoveTrack(id: string) {
  const client = useQueryClient();
  const key = playlistKeys.detail(id);
  return useMutation({
    mutationFn: (song: Pick<SongDto, 'id' | 'title'>) =>
      api(playlistsApi.removeTrack, { params: { id, songId: song.id } }),
    // The row goes at once; it comes back if the server refuses.
    onMutate: async (song) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<PlaylistDetail>(key);
      client.setQueryData<PlaylistDetail>(key, (d) =>
        d ? { ...d, tracks: renumber(d.tracks.filter((t) => t.song.id !== song.id)) } : d,
      );
      return { before };
    },
    onSuccess: (_data, song) => {
      toast.success(playlistMessages.trackRemoved, {
        id: PLAYLIST_TOAST,
        description: song.title,
      });
    },
    onError: (e, _song, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      showError(e, playlistMessages.removeFailed);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: key });
      void client.invalidateQueries({ queryKey: playlistKeys.mine });
    },
  });
}

export function useMoveTrack(id: string) {
  const client = useQueryClient();
  const key = playlistKeys.detail(id);
  return useMutation({
    mutationKey: playlistKeys.move(id),
    mutationFn: ({ songId, to }: { songId: string; from: number; to: number }) =>
      api(playlistsApi.moveTrack, { params: { id, songId }, body: { index: to } }),
    // Shown at once, so a run of key presses or drags never waits for the server.
    onMutate: async ({ from, to }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<PlaylistDetail>(key);
      client.setQueryData<PlaylistDetail>(key, (d) =>
        d ? { ...d, tracks: renumber(moveItem(d.tracks, from, to)) } : d,
      );
      return { before };
    },
    onError: (e, _vars, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      showError(e, 'Failed to move track');
    },
    onSettled: () => {
      // Only after the last of a run of moves: an earlier answer would undo the later ones.
      if (client.isMutating({ mutationKey: playlistKeys.move(id) }) <= 1)
        void client.invalidateQueries({ queryKey: key });
    },
  });
}
