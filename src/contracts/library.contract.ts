import { z } from 'zod';
import { songDto } from './songs.contract.ts';

/*
 * A listener's library (spec §2 Liked songs, §4 Like button, §7 liked_songs).
 * Times are ISO strings.
 */

/**
 * PUT/DELETE /api/me/liked-songs/{songId}. Any id the cards show is accepted, so an
 * external catalogue track (`<source>:<id>`, never stored) answers 404 like a missing song
 * rather than 400: there is nothing the caller typed wrong.
 */
export const likedSongParams = z.object({ songId: z.string().min(1).max(200) });

/** GET /api/me/liked-songs: the caller's liked songs, newest like first. */
export const likedSongs = z.object({
  items: z.array(
    z.object({
      liked_at: z.string().describe('ISO timestamp'),
      song: songDto,
    }),
  ),
});
export type LikedSongs = z.infer<typeof likedSongs>;
export type LikedSongItem = LikedSongs['items'][number];

/** GET /api/me/liked-songs/ids: every song the caller likes, for the like buttons' state. */
export const likedSongIds = z.object({ song_ids: z.array(z.uuid()) });
export type LikedSongIds = z.infer<typeof likedSongIds>;
