import type { PlaylistDetail } from '../../../contracts/playlists.contract.ts';
import type { Db } from '../../db/client.ts';
import type { FeatureModule, ModuleContext } from '../../module-context.ts';
import type { SongsModule } from '../songs/songs.module.ts';
import { likesRoutes } from './likes.routes.ts';
import { createLikesRepository } from './likes.repository.ts';
import { createLikesService } from './likes.service.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import { playlistsRoutes } from './playlists.routes.ts';
import {
  createPlaylistsService,
  type PlaylistEdit,
  type PlaylistListing,
} from './playlists.service.ts';

export type { PlaylistEdit, PlaylistListing } from './playlists.service.ts';

/** What other modules may ask of the library. */
export type LibraryModule = FeatureModule & {
  /**
   * A playlist owned by `userId` with `songIds` as its tracks in that order (stored songs
   * only, each once), made in `tx` when given: the AI mix (docs/decisions/0032).
   */
  createPlaylistWithSongs(
    input: { userId: string; title: string; description: string | null; isPublic: boolean },
    songIds: string[],
    tx?: Db,
  ): Promise<string>;
  /** The owner's playlist retitled with exactly `songIds`; false when it is gone. */
  replacePlaylistSongs(
    playlistId: string,
    userId: string,
    change: { title: string; songIds: string[] },
    tx?: Db,
  ): Promise<boolean>;
  /**
   * A playlist for its share link: a public one, or `viewerId`'s own private one (null: a
   * visitor); null for anything else, so a private playlist never shows through a link.
   */
  sharedPlaylist(playlistId: string, viewerId: string | null): Promise<PlaylistDetail | null>;
  /** The owner's playlist's songs in play order; null when it is not theirs or gone. */
  playlistSongIds(playlistId: string, userId: string): Promise<string[] | null>;

  // The same playlists to other clients (the Subsonic API), by the web's rules: each throws
  // the AppError the /api route would answer (not_found for another's private playlist,
  // permission_denied for another's public one, validation_failed with the form's message,
  // song_not_found, duplicate), and a refused change writes nothing.

  /** Own playlists and everyone's public ones, newest first; with `ownerId`, that owner's. */
  visiblePlaylists(userId: string, ownerId?: string): Promise<PlaylistListing[]>;
  /** A playlist `userId` may see, with its song ids in play order. */
  visiblePlaylist(
    userId: string,
    playlistId: string,
  ): Promise<{ playlist: PlaylistListing; songIds: string[] }>;
  /** A new playlist of `userId`'s holding `songIds` (each once, in order); its id. */
  createPlaylistFromSongs(
    userId: string,
    input: { title: string; isPublic?: boolean },
    songIds: string[],
  ): Promise<string>;
  /** The owner's playlist with exactly `songIds`, retitled when `title` is given. */
  setPlaylistSongs(
    userId: string,
    playlistId: string,
    songIds: string[],
    title?: string,
  ): Promise<void>;
  /** One all-or-nothing change of the owner's playlist: fields, removals by index, adds. */
  editPlaylist(userId: string, playlistId: string, change: PlaylistEdit): Promise<void>;
  /** Deletes the owner's playlist and its tracks. */
  deletePlaylist(userId: string, playlistId: string): Promise<void>;
  /**
   * Likes these songs (the web's Like, several at once: Subsonic star). All or nothing:
   * false when one does not exist. Idempotent: a song already liked keeps its time.
   */
  likeSongs(userId: string, songIds: readonly string[]): Promise<boolean>;
  /** Unlikes these songs; idempotent (a song not liked changes nothing). */
  unlikeSongs(userId: string, songIds: readonly string[]): Promise<void>;
};

/**
 * A listener's library, under /api. Liked songs (spec §2): PUT/DELETE
 * /me/liked-songs/{songId}, GET /me/liked-songs, GET /me/liked-songs/ids. Playlists (spec §2,
 * docs/decisions/0017): GET /me/playlists, POST /playlists, GET/PATCH/DELETE /playlists/{id},
 * POST /playlists/{id}/tracks, PATCH/DELETE /playlists/{id}/tracks/{songId}.
 */
export function createLibraryModule(
  ctx: ModuleContext,
  { songs }: { songs: Pick<SongsModule, 'songsByIds'> },
): LibraryModule {
  const likeRows = createLikesRepository(ctx.database.db);
  const likes = createLikesService({
    likes: likeRows,
    songsByIds: songs.songsByIds,
  });
  const playlistRows = createPlaylistsRepository(ctx.database.db);
  const playlists = createPlaylistsService({
    playlists: playlistRows,
    songsByIds: songs.songsByIds,
  });
  return {
    name: 'library',
    createPlaylistWithSongs: (input, songIds, tx) =>
      playlistRows.createWithTracks(input, songIds, tx),
    replacePlaylistSongs: (playlistId, userId, change, tx) =>
      playlistRows.replaceTracks(playlistId, userId, change, tx),
    sharedPlaylist: (playlistId, viewerId) => playlists.shared(viewerId, playlistId),
    playlistSongIds: (playlistId, userId) => playlistRows.ownTrackIds(playlistId, userId),
    visiblePlaylists: playlists.listVisible,
    visiblePlaylist: playlists.listing,
    createPlaylistFromSongs: playlists.createWithSongs,
    setPlaylistSongs: playlists.replaceSongs,
    editPlaylist: playlists.edit,
    deletePlaylist: playlists.remove,
    likeSongs: (userId, songIds) => likeRows.likeMany(userId, songIds),
    unlikeSongs: (userId, songIds) => likeRows.unlikeMany(userId, songIds),
    plugin: async (app) => {
      await app.register(likesRoutes({ likes }), { prefix: '/api' });
      await app.register(playlistsRoutes({ playlists }), { prefix: '/api' });
    },
  };
}
