import type { LikedSongIds, LikedSongs } from '../../../contracts/library.contract.ts';
import type { SongDto } from '../../../contracts/songs.contract.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { isUuid } from '../../../core/uuid.ts';
import type { LikesRepository } from './likes.repository.ts';

export type LikesService = ReturnType<typeof createLikesService>;

export type LikesServiceDeps = {
  likes: LikesRepository;
  /** The songs module's DTOs (signed URLs), in the order asked. */
  songsByIds: (ids: string[]) => Promise<SongDto[]>;
};

/** Liked songs (spec §2, §4 Like button, §7 liked_songs). */
export function createLikesService({ likes, songsByIds }: LikesServiceDeps) {
  return {
    /** Idempotent. External catalogue tracks (`<source>:<id>`) have no row: not found. */
    async like(userId: string, songId: string): Promise<void> {
      if (!isUuid(songId) || !(await likes.like(userId, songId.toLowerCase()))) {
        throw new AppError(ErrorCode.songNotFound, 'Song not found');
      }
    },

    /**
     * Idempotent: unliking a song that is not liked (or was deleted) changes nothing. An id
     * that can name no stored song (an external track, a typo) is 404, as for like.
     */
    async unlike(userId: string, songId: string): Promise<void> {
      if (!isUuid(songId)) throw new AppError(ErrorCode.songNotFound, 'Song not found');
      await likes.unlike(userId, songId.toLowerCase());
    },

    async list(userId: string): Promise<LikedSongs> {
      const rows = await likes.list(userId);
      const songs = new Map(
        (await songsByIds(rows.map((r) => r.songId))).map((song) => [song.id, song]),
      );
      // A song deleted between the two reads is left out (its like goes with it anyway).
      return {
        items: rows.flatMap((r) => {
          const song = songs.get(r.songId);
          return song ? [{ liked_at: r.likedAt.toISOString(), song }] : [];
        }),
      };
    },

    async ids(userId: string): Promise<LikedSongIds> {
      return { song_ids: await likes.songIds(userId) };
    },
  };
}
