import type {
  CreatePlaylistBody,
  MyPlaylists,
  PlaylistDetail,
  PlaylistOrder,
  PlaylistSummary,
  TrackAdded,
  UpdatePlaylistBody,
} from '../../../contracts/playlists.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import { playlistLimits, playlistMessages } from '../../../core/validation/playlist.rules.ts';
import type { PlaylistRow, PlaylistsRepository } from './playlists.repository.ts';

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

  return {
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
      const row = await visible(userId, id);
      const [tracks, ownerName] = await Promise.all([
        playlists.tracks(id),
        playlists.ownerDisplayName(row.userId),
      ]);
      const songs = new Map(
        (await songsByIds(tracks.map((t) => t.songId))).map((song) => [song.id, song]),
      );
      return {
        playlist: {
          ...toSummary(row),
          owner_display_name: ownerName,
          is_owner: row.userId === userId,
        },
        // A song deleted between the two reads is left out (its track goes with it anyway).
        tracks: tracks.flatMap((t) => {
          const song = songs.get(t.songId);
          return song ? [{ position: t.position, added_at: t.addedAt.toISOString(), song }] : [];
        }),
      };
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
