import { z } from 'zod';
import { playlistDescription, playlistTitle } from '../core/validation/playlist.rules.ts';
import { songDto } from './songs.contract.ts';

/*
 * Playlists (docs/decisions/0017; spec §2 Playlists, Playlist, Add-to-playlist dialog, §3
 * playlists and playlist_tracks, §5 rules). Times are ISO strings. Bodies are strict: an
 * unknown key (user_id, owner…) is a 400 and nothing is written.
 */

export const playlistIdParams = z.object({ id: z.uuid() });
/** A track is named by its song; external catalogue ids (`<source>:<id>`) answer 404. */
export const playlistTrackParams = z.object({
  id: z.uuid(),
  songId: z.string().min(1).max(200),
});

export const playlistSummary = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  is_public: z.boolean(),
  /** The playlist's own cover, else the first track's, else null. */
  cover_art_url: z.string().nullable(),
  track_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type PlaylistSummary = z.infer<typeof playlistSummary>;

/** GET /api/me/playlists: the caller's playlists, newest first. */
export const myPlaylists = z.object({ items: z.array(playlistSummary) });
export type MyPlaylists = z.infer<typeof myPlaylists>;

/** POST /api/playlists → 201 PlaylistSummary. Public unless told otherwise. */
export const createPlaylistBody = z.strictObject({
  title: playlistTitle(),
  description: playlistDescription().optional(),
  is_public: z.boolean().optional(),
});
export type CreatePlaylistBody = z.infer<typeof createPlaylistBody>;

/** PATCH /api/playlists/{id} (owner) → PlaylistSummary. A blank description clears it. */
export const updatePlaylistBody = z.strictObject({
  title: playlistTitle().optional(),
  description: playlistDescription().nullable().optional(),
  is_public: z.boolean().optional(),
});
export type UpdatePlaylistBody = z.infer<typeof updatePlaylistBody>;

export const playlistTrack = z.object({
  position: z.number().int(),
  added_at: z.string(),
  song: songDto,
});
export type PlaylistTrack = z.infer<typeof playlistTrack>;

/**
 * GET /api/playlists/{id}: the owner's, or anyone signed in when public; otherwise 404
 * 'Playlist not found' (a private playlist's existence is not revealed).
 */
export const playlistDetail = z.object({
  playlist: playlistSummary.extend({
    owner_display_name: z.string().nullable(),
    is_owner: z.boolean(),
  }),
  /** Ordered by position. */
  tracks: z.array(playlistTrack),
});
export type PlaylistDetail = z.infer<typeof playlistDetail>;

/**
 * POST /api/playlists/{id}/tracks (owner) → 201. Position = highest + 1, 0 when empty.
 * 409 `duplicate` 'Already in playlist' with details { playlist_title } when present;
 * 409 `duplicate` with details { reason: 'playlist_full' } past playlistLimits.maxTracks;
 * 404 `song_not_found` for a missing or external song.
 */
export const addTrackBody = z.strictObject({ song_id: z.string().min(1).max(200) });
export type AddTrackBody = z.infer<typeof addTrackBody>;
export const trackAdded = z.object({ song_id: z.uuid(), position: z.number().int() });
export type TrackAdded = z.infer<typeof trackAdded>;

/**
 * PATCH /api/playlists/{id}/tracks/{songId} (owner): move the track to `index` (0-based,
 * clamped to the end) of the current order; positions are rewritten 0..n-1. Answers the
 * new order.
 */
export const moveTrackBody = z.strictObject({ index: z.number().int().min(0) });
export type MoveTrackBody = z.infer<typeof moveTrackBody>;
export const playlistOrder = z.object({ song_ids: z.array(z.uuid()) });
export type PlaylistOrder = z.infer<typeof playlistOrder>;

// DELETE /api/playlists/{id} (owner) → 204. DELETE /api/playlists/{id}/tracks/{songId}
// (owner) → 204, also when the track was not there.
