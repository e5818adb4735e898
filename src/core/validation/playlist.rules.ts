import { textLine } from './text.rules.ts';

// Spec §5 playlist and add-to-playlist rules, §8 messages, and the track limit
// (docs/decisions/0017), shared by the playlist screens and the server.

export const playlistLimits = {
  titleMax: 100,
  descriptionMax: 500,
  /**
   * Tracks one playlist holds. Large enough for any library people build by hand, small
   * enough that a playlist page, a reorder and a Play All stay one bounded read.
   */
  maxTracks: 10_000,
} as const;

export const playlistMessages = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be less than 100 characters',
  descriptionTooLong: 'Description must be less than 500 characters',
  created: 'Playlist created successfully!',
  createFailed: 'Failed to create playlist',
  loadListFailed: 'Failed to load playlists',
  loadFailed: 'Failed to load playlist',
  notFound: 'Playlist not found',
  notOwner: 'Only the owner can change this playlist',
  alreadyIn: 'Already in playlist',
  alreadyInDescription: (title: string) => `This song is already in "${title}"`,
  addFailed: 'Failed to add to playlist',
  full: 'A playlist can hold at most 10,000 tracks',
  songNotFound: 'Song not found',
  trackRemoved: 'Track removed from playlist',
  removeFailed: 'Failed to remove track',
  trackNotInPlaylist: 'That track is not in this playlist',
  // A phone app removes tracks by their index in the play order.
  trackIndexOutOfRange: 'There is no track at that position',
} as const;

export const playlistTitle = () =>
  textLine(playlistMessages.titleRequired)
    .min(1, { error: playlistMessages.titleRequired })
    .max(playlistLimits.titleMax, { error: playlistMessages.titleTooLong });

/** Optional; blank is stored as null. */
export const playlistDescription = () =>
  textLine().max(playlistLimits.descriptionMax, { error: playlistMessages.descriptionTooLong });
