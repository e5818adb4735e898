// The library's public face (likes and playlists) for other features and the shell. Its
// screens (liked-songs-page, playlists-page, playlist-page) are lazy routes in app.tsx.
export { LikeButton } from './like-button.tsx';
export { AddToPlaylistButton } from './add-to-playlist-button.tsx';
export { SongRowWithActions } from './song-row-with-actions.tsx';
export { CreatePlaylistDialog } from './create-playlist-dialog.tsx';
export { PLAYLIST_TOAST } from './use-playlists.ts';
export { useGenerateAiMix } from './use-ai-mix.ts';
