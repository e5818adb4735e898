import {
  createPlaylistBody,
  updatePlaylistBody,
  type CreatePlaylistBody,
  type MyPlaylists,
  type PlaylistDetail,
  type PlaylistOrder,
  type PlaylistSummary,
  type TrackAdded,
  type UpdatePlaylistBody,
} from '../../../contracts/playlists.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import { playlistLimits, playlistMessages } from '../../../core/validation/playlist.rules.ts';
import type { ZodType } from 'zod';
import type {
  PlaylistListingRow,
  PlaylistRow,
  PlaylistsRepository,
} from './playlists.repository.ts';

/** A playlist as other clients of the library list it (the Subsonic API). */
export type PlaylistListing = {
  id: string;
  ownerId: string;
  /** The owner's sign-in email. */
  ownerEmail: string;
  title: string;
  description: string | null;
  isPublic: boolean;
  trackCount: number;
  durationMs: number;
  /** The first track's song, whose cover stands for the playlist's. */
  firstSongId: string | null;
  createdAt: Date;
  /** The last change, or the creation when never changed. */
  changedAt: Date;
};

/** A change of a playlist in one go: the fields, then tracks removed by index and added. */
export type PlaylistEdit = {
  title?: string;
  description?: string;
  isPublic?: boolean;
  /** Indexes of the current play order, from 0. */
  removeIndexes: number[];
  /** Appended after the last track, in this order. */
  addSongIds: string[];
};

const toListing = (row: PlaylistListingRow): PlaylistListing => ({
  id: row.id,
  ownerId: row.userId,
  ownerEmail: row.ownerEmail,
  title: row.title,
  description: row.description,
  isPublic: row.isPublic,
  trackCount: row.trackCount,
  durationMs: Number(row.durationMs),
  firstSongId: row.firstSongId,
  createdAt: row.createdAt,
  changedAt: row.updatedAt ?? row.createdAt,
});

/** Input checked by the web API's own schema: its first message, as the web form shows it. */
function checked<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success)
    throw new AppError(ErrorCode.validation, result.error.issues[0]?.message ?? 'Invalid input');
  return result.data;
}

/** Song ids as stored (lower case); an id that is no uuid names no stored song. */
function songIdsOf(ids: string[]): string[] {
  if (!ids.every((id) => isUuid(id))) throw songNotFound();
  return ids.map((id) => id.toLowerCase());
}

export type PlaylistsService = ReturnType<typeof createPlaylistsService>;

export type PlaylistsServiceDeps = {
  playlists: PlaylistsRepository;
  /** The songs module's DTOs (signed URLs), in the order asked. */
  songsByIds: (ids: string[]) => Promise<SongDto[]>;
};

const notFound = () => new AppError(ErrorCode.notFound, playlistMessages.notFound);
const songNotFound = () => new AppError(ErrorCode.songNotFound, playlistMessages.songNotFound);
const trackNotInPlaylist = () =>
  new AppError(ErrorCode.notFound, playlistMessages.trackNotInPlaylist);

function toSummary(row: PlaylistRow): PlaylistSummary {
  return {
    id: row.id,
    user_id: row.userId,
    title: row.title,
    description: row.description,
    is_public: row.isPublic,
    cover_art_url: row.coverArtUrl,
    track_count: row.trackCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
  };
}

/** A blank description is no description. */
const descriptionOf = (text: string | null | undefined) => (text ? text : null);

/**
 * Playlists (spec §2 Playlists, Playlist, Add-to-playlist dialog; §5 rules; ADR 0017).
 * A private playlist is the owner's alone: to anyone else it does not exist (404), so its
 * existence is never revealed; a public one is readable by anyone signed in, and changing it
 * is refused (403).
 */
export function createPlaylistsService({ playlists, songsByIds }: PlaylistsServiceDeps) {
  async function visible(userId: string, id: string): Promise<PlaylistRow> {
    const row = await playlists.find(id);
    if (!row || (!row.isPublic && row.userId !== userId)) throw notFound();
    return row;
  }

  async function owned(userId: string, id: string): Promise<PlaylistRow> {
    const row = await visible(userId, id);
    if (row.userId !== userId) throw new AppError(ErrorCode.forbidden, playlistMessages.notOwner);
    return row;
  }

  async function summary(id: string): Promise<PlaylistSummary> {
    const row = await playlists.find(id);
    // Deleted by a concurrent request between the write and this read.
    if (!row) throw notFound();
    return toSummary(row);
  }

  /** Every id a stored song, and no more than a playlist holds; else nothing is written. */
  async function storedSongs(ids: string[]): Promise<string[]> {
    const songIds = [...new Set(songIdsOf(ids))];
    if (songIds.length > playlistLimits.maxTracks)
      throw new AppError(ErrorCode.conflict, playlistMessages.full, {
        reason: 'playlist_full',
        max_tracks: playlistLimits.maxTracks,
      });
    const stored = await playlists.storedSongIds(songIds);
    if (songIds.some((id) => !stored.has(id))) throw songNotFound();
    return songIds;
  }

  /** A playlist its viewer may see, with its tracks' songs (`viewerId` null: a visitor). */
  async function detail(row: PlaylistRow, viewerId: string | null): Promise<PlaylistDetail> {
    const [tracks, ownerName] = await Promise.all([
      playlists.tracks(row.id),
      playlists.ownerDisplayName(row.userId),
    ]);
    const songs = new Map(
      (await songsByIds(tracks.map((t) => t.songId))).map((song) => [song.id, song]),
    );
    return {
      playlist: {
        ...toSummary(row),
        owner_display_name: ownerName,
        is_owner: row.userId === viewerId,
      },
      // A song deleted between the two reads is left out (its track goes with it anyway).
      tracks: tracks.flatMap((t) => {
        const song = songs.get(t.songId);
        return song ? [{ position: t.position, added_at: t.addedAt.toISOString(), song }] : [];
      }),
    };
  }

  return {
    /**
     * The playlists `userId` may see (their own and everyone's public ones), newest first;
     * with `ownerId`, that owner's only.
     */
    async listVisible(userId: string, ownerId?: string): Promise<PlaylistListing[]> {
      return (await playlists.listVisible(userId, ownerId)).map(toListing);
    },

    /** A playlist `userId` may see and its song ids in play order (404 as `get`). */
    async listing(
      userId: string,
      id: string,
    ): Promise<{ playlist: PlaylistListing; songIds: string[] }> {
      await visible(userId, id);
      const [row, tracks] = await Promise.all([playlists.findListing(id), playlists.tracks(id)]);
      if (!row) throw notFound();
      return { playlist: toListing(row), songIds: tracks.map((t) => t.songId) };
    },

    /**
     * A new playlist of `userId`'s with `songIds` as its tracks (each once, in the order
     * given), checked by the create form's rules; a song that is not stored is a 404 and
     * nothing is written.
     */
    async createWithSongs(
      userId: string,
      input: { title: string; isPublic?: boolean },
      songIds: string[],
    ): Promise<string> {
      const body = checked(createPlaylistBody, {
        title: input.title,
        ...(input.isPublic !== undefined && { is_public: input.isPublic }),
      });
      const songs = await storedSongs(songIds);
      return playlists.createWithTracks(
        { userId, title: body.title, description: null, isPublic: body.is_public ?? true },
        songs,
      );
    },

    /** The owner's playlist with exactly `songIds` (each once), retitled when `title` is given. */
    async replaceSongs(
      userId: string,
      id: string,
      songIds: string[],
      title?: string,
    ): Promise<void> {
      const row = await owned(userId, id);
      const patch = checked(updatePlaylistBody, title === undefined ? {} : { title });
      const songs = await storedSongs(songIds);
      const done = await playlists.replaceTracks(id, userId, {
        title: patch.title ?? row.title,
        songIds: songs,
      });
      if (!done) throw notFound();
    },

    /**
     * One change of the owner's playlist, all or nothing: fields by the edit form's rules,
     * tracks removed by index (an index of no track is refused) and songs appended as the
     * add-to-playlist dialog adds them (a song already there is refused).
     */
    async edit(userId: string, id: string, change: PlaylistEdit): Promise<void> {
      await owned(userId, id);
      const asksNothing =
        change.title === undefined &&
        change.description === undefined &&
        change.isPublic === undefined &&
        change.removeIndexes.length === 0 &&
        change.addSongIds.length === 0;
      // As the web's empty PATCH: nothing to change, nothing written (not even updated_at).
      if (asksNothing) return;
      const body = checked(updatePlaylistBody, {
        ...(change.title !== undefined && { title: change.title }),
        ...(change.description !== undefined && { description: change.description }),
        ...(change.isPublic !== undefined && { is_public: change.isPublic }),
      });
      const result = await playlists.editTracks(
        id,
        userId,
        {
          patch: {
            ...(body.title !== undefined && { title: body.title }),
            ...(body.description !== undefined && {
              description: descriptionOf(body.description),
            }),
            ...(body.is_public !== undefined && { isPublic: body.is_public }),
          },
          removeIndexes: change.removeIndexes,
          addSongIds: songIdsOf(change.addSongIds),
        },
        playlistLimits.maxTracks,
      );
      switch (result.outcome) {
        case 'edited':
          return;
        case 'gone':
          throw notFound();
        case 'bad_index':
          throw new AppError(ErrorCode.validation, playlistMessages.trackIndexOutOfRange);
        case 'no_song':
          throw songNotFound();
        case 'duplicate':
          throw new AppError(
            ErrorCode.conflict,
            playlistMessages.alreadyInDescription(result.title),
            {
              playlist_title: result.title,
            },
          );
        case 'full':
          throw new AppError(ErrorCode.conflict, playlistMessages.full, {
            reason: 'playlist_full',
            max_tracks: playlistLimits.maxTracks,
          });
      }
    },

    async listOwn(userId: string): Promise<MyPlaylists> {
      return { items: (await playlists.listOwn(userId)).map(toSummary) };
    },

    async create(userId: string, body: CreatePlaylistBody): Promise<PlaylistSummary> {
      const id = await playlists.create({
        userId,
        title: body.title,
        description: descriptionOf(body.description),
        isPublic: body.is_public ?? true,
      });
      return summary(id);
    },

    async get(userId: string, id: string): Promise<PlaylistDetail> {
      return detail(await visible(userId, id), userId);
    },

    /**
     * A public playlist, or `viewerId`'s own private one, for its share link; null for
     * anything else (another's private playlist, none, an id that is no uuid).
     */
    async shared(viewerId: string | null, id: string): Promise<PlaylistDetail | null> {
      if (!isUuid(id)) return null;
      const row = await playlists.find(id.toLowerCase());
      if (!row || (!row.isPublic && row.userId !== viewerId)) return null;
      return detail(row, viewerId);
    },

    async update(userId: string, id: string, body: UpdatePlaylistBody): Promise<PlaylistSummary> {
      const row = await owned(userId, id);
      const patch = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: descriptionOf(body.description) }),
        ...(body.is_public !== undefined && { isPublic: body.is_public }),
      };
      if (Object.keys(patch).length === 0) return toSummary(row);
      if (!(await playlists.update(id, userId, patch))) throw notFound();
      return summary(id);
    },

    async remove(userId: string, id: string): Promise<void> {
      await owned(userId, id);
      await playlists.remove(id, userId);
    },

    async addTrack(userId: string, id: string, songId: string): Promise<TrackAdded> {
      await owned(userId, id);
      // External catalogue tracks (`<source>:<id>`) have no row to add.
      if (!isUuid(songId)) throw songNotFound();
      const song = songId.toLowerCase();
      const result = await playlists.addTrack(id, userId, song, playlistLimits.maxTracks);
      switch (result.outcome) {
        case 'added':
          return { song_id: song, position: result.position };
        case 'gone':
          throw notFound();
        case 'no_song':
          throw songNotFound();
        case 'duplicate':
          throw new AppError(ErrorCode.conflict, playlistMessages.alreadyIn, {
            playlist_title: result.title,
          });
        case 'full':
          throw new AppError(ErrorCode.conflict, playlistMessages.full, {
            reason: 'playlist_full',
            max_tracks: playlistLimits.maxTracks,
          });
      }
    },

    /** Idempotent: removing a track that is not there changes nothing. */
    async removeTrack(userId: string, id: string, songId: string): Promise<void> {
      await owned(userId, id);
      if (!isUuid(songId)) throw songNotFound();
      await playlists.removeTrack(id, songId.toLowerCase());
    },

    async moveTrack(
      userId: string,
      id: string,
      songId: string,
      index: number,
    ): Promise<PlaylistOrder> {
      await owned(userId, id);
      if (!isUuid(songId)) throw trackNotInPlaylist();
      const result = await playlists.moveTrack(id, userId, songId.toLowerCase(), index);
      if (result.outcome !== 'moved')
        throw result.outcome === 'gone' ? notFound() : trackNotInPlaylist();
      return { song_ids: result.songIds };
    },
  };
}
